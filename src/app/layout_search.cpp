#include "app/layout_search.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "app/checkpoint_options.hpp"
#include "app/training_run.hpp"
#include "io/number_format.hpp"
#include "models/memory/infeasible_job.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/stop_signals.hpp"
#include "search/iteration_estimate.hpp"
#include "search/rank_correlation.hpp"

namespace rackscale::app {

namespace wl = models::workload;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a rank sends of each share: plain numbers, put back into candidates from the index.
struct KeptRow {
  std::uint64_t index = 0, peak = 0;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & index & peak;
  }
};
struct EstimateRow {
  std::uint64_t position = 0;  // in the kept list
  pdes::SimTime iteration = 0, compute = 0, exposed = 0, bubble = 0;
  std::uint64_t tokens = 0;
  double model_flops = 0;
  std::string refused;  // the plan's rule, when the job cannot be built
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & position & iteration & compute & exposed & bubble & tokens & model_flops & refused;
  }
};
struct SimulationRow {
  std::uint64_t finalist = 0;
  pdes::SimTime iteration = 0, compute = 0, exposed = 0, bubble = 0;
  std::string failure;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & finalist & iteration & compute & exposed & bubble & failure;
  }
};

// Every rank agrees whether any was asked to stop (a signal, docs/cli.md); if so they all throw RunStopped
// with what was done, so the search ends with exit 4 instead of running on between collectives.
void stop_if_asked(const boost::mpi::communicator& comm, const std::string& done) {
  const int mine = pdes::stop_signal_received();
  int any = 0;
  boost::mpi::all_reduce(comm, mine, any, boost::mpi::maximum<int>());
  if (any != 0)
    throw RunStopped(fmt::format("stopped by signal {} after {}; a search is not checkpointed: run it again", any, done));
}

template <typename Row>
std::vector<Row> gather_rows(const boost::mpi::communicator& comm, const std::vector<Row>& mine) {
  std::vector<std::vector<Row>> all;
  boost::mpi::all_gather(comm, mine, all);
  std::vector<Row> rows;
  for (auto& part : all) rows.insert(rows.end(), part.begin(), part.end());
  return rows;
}

bool ranks_before(const RankedLayout& a, const RankedLayout& b, search::Objective objective) {
  // Finalists that ran first, by their simulated score; then the rest by the estimate; refused ones last.
  auto tier = [](const RankedLayout& r) { return r.simulated ? 0 : r.failure.empty() ? 1 : 2; };
  if (tier(a) != tier(b)) return tier(a) < tier(b);
  const double sa = search::score(objective, a.figures), sb = search::score(objective, b.figures);
  if (sa != sb) return sa < sb;
  return a.candidate.index < b.candidate.index;
}

}  // namespace

SearchResult run_search(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                        const SearchOptions& options, const SearchProgress& progress) {
  if (scenario.workload.kind != models::WorkloadKind::training)
    throw std::invalid_argument("workload.type: rackscale search needs a training workload");
  if (options.ranks_per_candidate == 0 || options.ranks_per_candidate > static_cast<std::uint32_t>(comm.size()))
    throw std::invalid_argument(fmt::format("--ranks-per-candidate: expected 1 to {} (the ranks of this run), found {}",
                                            comm.size(), options.ranks_per_candidate));
  const wl::TrainingSpec& job = scenario.workload.training;
  const auto& cluster = scenario.cluster;
  SearchResult result;
  result.space = search::parse_space(options.space, search::default_space(job, cluster));
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const auto me = static_cast<std::uint64_t>(comm.rank());

  // 1. Prune: every rank its share of the product.
  auto start = Clock::now();
  const search::Pruning share = search::prune_layouts(job, cluster, result.space, me, ranks);
  std::vector<KeptRow> kept_rows;
  for (const auto& c : share.kept) kept_rows.push_back({c.index, c.peak_memory});
  std::vector<KeptRow> kept = gather_rows(comm, kept_rows);
  std::sort(kept.begin(), kept.end(), [](const KeptRow& a, const KeptRow& b) { return a.index < b.index; });
  std::vector<std::pair<std::uint64_t, std::map<std::string, std::uint64_t>>> counts;
  boost::mpi::all_gather(comm, std::make_pair(share.layouts, share.pruned), counts);
  for (const auto& [layouts, pruned] : counts) {
    result.layouts += layouts;
    for (const auto& [rule, n] : pruned) result.pruned[rule] += n;
  }
  result.prune_seconds = seconds_since(start);
  stop_if_asked(comm, "pruning");
  progress(fmt::format("pruned {} layouts in {:.1f} s: {} left", io::with_commas(result.layouts),
                       result.prune_seconds, io::with_commas(kept.size())));

  // 2. Estimate every survivor: survivor j on rank j mod R.
  start = Clock::now();
  const auto topology = models::network::build_topology(cluster, scenario.network.routing);
  const search::CostModel costs = search::cost_model(cluster, topology, scenario.tco);
  std::vector<EstimateRow> estimate_rows;
  for (std::uint64_t j = me; j < kept.size(); j += ranks) {
    if (pdes::stop_signal_received() != 0) break;  // stop_if_asked below: every rank ends the search
    EstimateRow row;
    row.position = j;
    const auto parallel = search::layout_at(job, result.space, kept[j].index);
    try {
      const wl::TrainingPlan plan = wl::build_training_plan(search::with_layout(job, *parallel), cluster);
      const auto e = search::estimate_iteration(plan, cluster, topology);
      row.iteration = e.iteration;
      row.compute = e.compute;
      row.exposed = e.exposed_communication;
      row.bubble = e.pipeline_bubble;
      row.tokens = plan.layout.tokens_per_iteration();
      row.model_flops = plan.model_flops;
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      row.refused = what.substr(0, what.find(':'));
    }
    estimate_rows.push_back(row);
  }
  stop_if_asked(comm, fmt::format("estimating {} of {} layouts on rank {}", estimate_rows.size(),
                                   (kept.size() + ranks - 1 - me) / ranks, me));
  std::vector<EstimateRow> estimates = gather_rows(comm, estimate_rows);
  std::sort(estimates.begin(), estimates.end(),
            [](const EstimateRow& a, const EstimateRow& b) { return a.position < b.position; });
  for (const EstimateRow& row : estimates) {
    if (!row.refused.empty()) {
      ++result.pruned[row.refused];
      continue;
    }
    RankedLayout r;
    r.candidate.index = kept[row.position].index;
    r.candidate.peak_memory = kept[row.position].peak;
    r.candidate.parallel = *search::layout_at(job, result.space, r.candidate.index);
    const std::uint64_t tp_pp_cp =
        std::uint64_t{r.candidate.parallel.tensor} * r.candidate.parallel.pipeline * r.candidate.parallel.context;
    r.candidate.parallel.data = static_cast<std::uint32_t>(cluster.devices() / tp_pp_cp);
    r.tokens_per_iteration = row.tokens;
    r.model_flops = row.model_flops;
    r.estimate = {row.iteration, row.compute, row.exposed, row.bubble};
    r.estimated = search::run_figures(r.estimate, row.tokens, row.model_flops, costs);
    r.figures = r.estimated;
    result.ranked.push_back(std::move(r));
  }
  std::sort(result.ranked.begin(), result.ranked.end(),
            [&](const RankedLayout& a, const RankedLayout& b) { return ranks_before(a, b, options.objective); });
  result.estimate_seconds = seconds_since(start);
  progress(fmt::format("estimated {} layouts in {:.1f} s", io::with_commas(result.ranked.size()),
                       result.estimate_seconds));

  // 3. Simulate the best by the estimate: finalist f by group f mod groups.
  start = Clock::now();
  const std::uint32_t finalists =
      static_cast<std::uint32_t>(std::min<std::size_t>(options.simulate, result.ranked.size()));
  const int groups = comm.size() / static_cast<int>(options.ranks_per_candidate);
  const int group = comm.rank() / static_cast<int>(options.ranks_per_candidate);
  const boost::mpi::communicator team = comm.split(group < groups ? group : groups);
  std::vector<SimulationRow> simulation_rows;
  if (group < groups) {
    for (std::uint32_t f = static_cast<std::uint32_t>(group); f < finalists; f += static_cast<std::uint32_t>(groups)) {
      models::Scenario s = scenario;
      s.workload.training = search::with_layout(job, result.ranked[f].candidate.parallel);
      s.workload.training.parallel.data = 0;
      s.workload.training.iterations = 1;
      if (options.fidelity) s.network.fidelity = *options.fidelity;
      SimulationRow row;
      row.finalist = f;
      try {
        const auto report = run_training(team, s, RunOptions{});
        row.iteration = report.iteration_time;
        const auto& b = report.breakdown;
        row.compute = static_cast<pdes::SimTime>(b.forward + b.backward + b.recompute + b.optimizer + b.other_compute);
        row.exposed = static_cast<pdes::SimTime>(b.exposed_communication);
        row.bubble = static_cast<pdes::SimTime>(b.pipeline_bubble);
      } catch (const std::invalid_argument& e) {
        row.failure = e.what();
      } catch (const models::memory::InfeasibleJob& e) {
        row.failure = e.what();
      }
      if (team.rank() == 0) simulation_rows.push_back(row);
      if (comm.rank() == 0)
        progress(fmt::format("simulated finalist {} of {}: {}", f + 1, finalists,
                             search::describe(result.ranked[f].candidate.parallel, cluster.devices())));
    }
  }
  const std::vector<SimulationRow> simulations = gather_rows(comm, simulation_rows);
  std::vector<double> estimated_scores, simulated_scores;
  for (const SimulationRow& row : simulations) {
    RankedLayout& r = result.ranked[row.finalist];
    if (!row.failure.empty()) {
      r.failure = row.failure;
      continue;
    }
    r.simulated = true;
    r.simulation = {row.iteration, row.compute, row.exposed, row.bubble};
    r.figures = search::run_figures(r.simulation, r.tokens_per_iteration, r.model_flops, costs);
    ++result.simulated;
  }
  for (std::uint32_t f = 0; f < finalists; ++f) {
    const RankedLayout& r = result.ranked[f];
    if (!r.simulated) continue;
    estimated_scores.push_back(search::score(options.objective, r.estimated));
    simulated_scores.push_back(search::score(options.objective, r.figures));
  }
  result.spearman = search::spearman(estimated_scores, simulated_scores);
  std::stable_sort(result.ranked.begin(), result.ranked.end(),
                   [&](const RankedLayout& a, const RankedLayout& b) { return ranks_before(a, b, options.objective); });
  result.simulate_seconds = seconds_since(start);
  return result;
}

}  // namespace rackscale::app
