#pragma once
// `replicas` runs of the run-level model, spread over the ranks (replica r is LP r, placed in blocks),
// on the PDES engine; their outcomes gathered by exact integer sums, so every rank holds the same
// figures for any rank count (docs/goodput.md).
#include <cstdint>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "models/goodput/replica_lp.hpp"
#include "models/goodput/run_plan.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::models::goodput {

struct MonteCarloOptions {
  std::string queue;          // empty: the engine's default
  std::string sync = "auto";
};

struct MonteCarloResult {
  // outcomes[r][s]: replica r under schedule s; classes[r][c]: replica r's interruptions of class c under
  // the configured schedule. Per replica, not summed: a sum of picoseconds over replicas would overflow.
  std::vector<std::vector<ScheduleOutcome>> outcomes;
  std::vector<std::vector<ClassOutcome>> classes;
  std::uint64_t events = 0;           // interruptions simulated, over all ranks
  double wall_s = 0;                  // the slowest rank's engine time
};

// Collective. Throws std::invalid_argument for a bad plan (RunPlan::validate) and what the engine throws.
[[nodiscard]] MonteCarloResult run_replicas(const boost::mpi::communicator& comm, const RunPlan& plan,
                                            const MonteCarloOptions& options = {});

}  // namespace rackscale::models::goodput
