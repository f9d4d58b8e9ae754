#pragma once
// `rackscale search`'s work, on every rank: the layout space of the scenario's training job pruned by
// the rules (search/layout_candidates.hpp), every survivor estimated (search/iteration_estimate.hpp), the
// best by the estimate simulated with the event engine, all ranked by the objective
// (search/layout_figures.hpp). docs/search.md.
//
// Branch and bound: every survivor carries a floor under its estimate (search/iteration_bound.hpp); they
// are estimated best floor first, and once a floor is worse than the max(top, simulate)-th best estimate
// so far, the rest are skipped: the best max(top, simulate) are exactly those of estimating everything.
//
// Over MPI: rank r prunes the points r, r + R, r + 2R, ... of the product; the estimates go in rounds of
// a fixed size, candidate j of a round on rank j mod R; the finalists are simulated by groups of
// --ranks-per-candidate ranks (finalist f by group f mod groups), each with its own communicator. Every
// share is gathered in index order, so every rank holds the same result and the ranking (and what is
// estimated and skipped) is the same for any rank count.
//
// --output keeps a journal of every estimate and simulation (app/search_journal.hpp); --resume reads it
// back and makes only what it lacks.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "models/scenario.hpp"
#include "search/layout_candidates.hpp"
#include "search/layout_figures.hpp"
#include "search/layout_space.hpp"

namespace rackscale::app {

struct SearchOptions {
  std::string space;  // --space: axes replacing the defaults
  search::Objective objective = search::Objective::time;
  std::uint32_t simulate = 8;             // finalists run by the event engine (0: estimates only)
  std::uint32_t ranks_per_candidate = 1;  // ranks per simulated finalist
  std::optional<models::network::Fidelity> fidelity;  // the finalists' network fidelity (default: the scenario's)
  std::uint32_t top = 10;   // rows wanted: branch and bound keeps the best max(top, simulate) exact
  bool exhaustive = false;  // estimate every survivor (no branch and bound)
  // Estimate, besides the best max(top, simulate), every survivor whose floor's score is below this (0:
  // none more): then every layout scoring below it is estimated, and a layout of that score finds its exact
  // rank among the whole space's (tests/search/test_megatron_search.cpp) without estimating all of it.
  double estimate_below = 0;
  std::string output;       // --output: the journal (app/search_journal.hpp); empty: none
  bool resume = false;      // --resume: read `output` back and go on from it
  search::RunLimits limits;  // --budget, --deadline: layouts over them are dropped, counted by rule in `pruned`
};

struct RankedLayout {
  search::Candidate candidate;
  std::uint64_t tokens_per_iteration = 0;
  double model_flops = 0;  // per iteration, whole job
  search::IterationFigures estimate;
  search::RunFigures estimated;
  bool simulated = false;
  search::IterationFigures simulation;
  search::RunFigures figures;  // the simulation's where there is one, else the estimate's
  std::string failure;         // a finalist the simulation refused (its message); ranked last
};

struct SearchResult {
  search::LayoutSpace space;
  std::uint64_t layouts = 0;                    // examined
  std::map<std::string, std::uint64_t> pruned;  // by rule (with the limits broken: "over budget", ...)
  std::vector<RankedLayout> ranked;             // finalists by simulated score, then the rest by estimate
  std::uint32_t simulated = 0;
  std::uint64_t skipped = 0;   // survivors not estimated: their floor is worse than the needed-th best
  std::uint64_t resumed = 0;   // estimates read from the journal instead of made
  std::optional<double> spearman;  // of estimated and simulated scores over the finalists
  double prune_seconds = 0, estimate_seconds = 0, simulate_seconds = 0;  // wall time of each phase
};

// Progress lines for rank 0 to print ("pruned 172,032 layouts: 9,120 left", "simulated 3 of 16 ...").
using SearchProgress = std::function<void(const std::string&)>;

// Collective. Throws std::invalid_argument (bad option or scenario, before anything is simulated; the
// messages name the option or config key) and whatever a simulation throws beyond a refused layout.
[[nodiscard]] SearchResult run_search(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                      const SearchOptions& options, const SearchProgress& progress);

}  // namespace rackscale::app
