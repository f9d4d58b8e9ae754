#include "models/goodput/monte_carlo.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>

#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::models::goodput {
namespace {

// Replicas in contiguous blocks: rank k of n owns replicas [k R / n, (k + 1) R / n).
pdes::RankMap block_map(std::uint32_t replicas, int ranks) {
  std::vector<std::int32_t> owner(replicas);
  for (std::uint32_t r = 0; r < replicas; ++r)
    owner[r] = static_cast<std::int32_t>(static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(ranks) / replicas);
  return pdes::RankMap(std::move(owner), ranks);
}

}  // namespace

MonteCarloResult run_replicas(const boost::mpi::communicator& comm, const RunPlan& plan,
                              const MonteCarloOptions& options) {
  plan.validate();
  pdes::EngineOptions engine_options;
  if (!options.queue.empty()) engine_options.queue = options.queue;
  engine_options.sync = options.sync;
  engine_options.seed = plan.seed;
  pdes::Engine engine(comm, block_map(plan.replicas, comm.size()), engine_options);
  for (pdes::LpId lp : engine.rank_map().lps_of(comm.rank())) engine.add_lp(std::make_unique<ReplicaLp>(lp, plan));
  const pdes::EngineStats stats = engine.run(pdes::kNever);

  // Each replica's outcomes filled in by the rank that owns it and left 0 elsewhere, then summed.
  const std::size_t schedules = plan.schedules.size();
  const std::size_t classes = plan.classes.size();
  std::vector<ScheduleOutcome> outcomes(plan.replicas * schedules);
  std::vector<ClassOutcome> class_outcomes(plan.replicas * classes);
  for (const auto& base : engine.local_lps()) {
    const auto& lp = static_cast<const ReplicaLp&>(*base);
    std::copy(lp.outcomes().begin(), lp.outcomes().end(),
              outcomes.begin() + static_cast<std::ptrdiff_t>(lp.id() * schedules));
    std::copy(lp.classes().begin(), lp.classes().end(),
              class_outcomes.begin() + static_cast<std::ptrdiff_t>(lp.id() * classes));
  }
  struct Count {
    std::uint64_t events;
  };
  pdes::reduce_records_to_all<ScheduleOutcome>(comm, outcomes, outcomes, pdes::Reduction::sum);
  pdes::reduce_records_to_all<ClassOutcome>(comm, class_outcomes, class_outcomes, pdes::Reduction::sum);
  const Count events = pdes::reduce_record_to_all(comm, Count{stats.events_processed}, pdes::Reduction::sum);

  MonteCarloResult result;
  result.outcomes.assign(plan.replicas, std::vector<ScheduleOutcome>(schedules));
  result.classes.assign(plan.replicas, std::vector<ClassOutcome>(classes));
  for (std::uint32_t r = 0; r < plan.replicas; ++r) {
    std::copy_n(outcomes.begin() + static_cast<std::ptrdiff_t>(r * schedules), schedules, result.outcomes[r].begin());
    std::copy_n(class_outcomes.begin() + static_cast<std::ptrdiff_t>(r * classes), classes, result.classes[r].begin());
  }
  result.events = events.events;
  result.wall_s = static_cast<double>(pdes::max_over_ranks(comm, static_cast<std::uint64_t>(stats.wall_seconds * 1e6))) / 1e6;
  return result;
}

}  // namespace rackscale::models::goodput
