#include "models/goodput/monte_carlo.hpp"

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

  // Every figure as a row of integers, this rank's replicas filled in and the others 0, summed.
  const std::size_t schedules = plan.schedules.size();
  const std::size_t classes = plan.classes.size();
  const std::size_t per_replica = 3 * schedules + 3 * classes;
  std::vector<std::uint64_t> local(plan.replicas * per_replica + 1, 0);
  for (const auto& base : engine.local_lps()) {
    const auto& lp = static_cast<const ReplicaLp&>(*base);
    for (std::size_t s = 0; s < schedules; ++s) {
      const ScheduleOutcome& o = lp.outcomes()[s];
      const std::size_t at = lp.id() * per_replica + 3 * s;
      local[at] = o.finish;
      local[at + 1] = o.lost;
      local[at + 2] = o.down;
    }
    for (std::size_t c = 0; c < classes; ++c) {
      const ClassOutcome& o = lp.classes()[c];
      const std::size_t at = lp.id() * per_replica + 3 * schedules + 3 * c;
      local[at] = o.interruptions;
      local[at + 1] = o.lost;
      local[at + 2] = o.down;
    }
  }
  local.back() = stats.events_processed;
  std::vector<std::uint64_t> all(local.size());
  pdes::reduce_to_all(comm, local, all, pdes::Reduction::sum);

  MonteCarloResult result;
  result.outcomes.assign(plan.replicas, std::vector<ScheduleOutcome>(schedules));
  result.classes.assign(plan.replicas, std::vector<ClassOutcome>(classes));
  for (std::uint32_t r = 0; r < plan.replicas; ++r) {
    for (std::size_t s = 0; s < schedules; ++s) {
      const std::size_t at = r * per_replica + 3 * s;
      result.outcomes[r][s] = {all[at], all[at + 1], all[at + 2]};
    }
    for (std::size_t c = 0; c < classes; ++c) {
      const std::size_t at = r * per_replica + 3 * schedules + 3 * c;
      result.classes[r][c] = {all[at], all[at + 1], all[at + 2]};
    }
  }
  result.events = all.back();
  result.wall_s = static_cast<double>(pdes::max_over_ranks(comm, static_cast<std::uint64_t>(stats.wall_seconds * 1e6))) / 1e6;
  return result;
}

}  // namespace rackscale::models::goodput
