#include "sim/collective_size_workload.hpp"

#include <fmt/format.h>

#include "models/collectives/bench_sizes.hpp"
#include "models/collectives/collective_plan.hpp"
#include "pdes/error.hpp"

namespace rackscale::sim {

namespace coll = models::collectives;
using models::accelerator::Algorithm;

CollectiveSizeWorkload::CollectiveSizeWorkload(Session& session, coll::CollectiveCall& call,
                                               const coll::FabricFigures& figures, std::uint64_t count)
    : session_(session), call_(call), figures_(figures) {
  options_.channels = session.scenario().workload.collective.channels;
  point_.bytes = call.bytes;
  point_.count = count;
}

std::unique_ptr<models::network::DeviceBehaviour> CollectiveSizeWorkload::make_device(std::uint32_t /*device*/) {
  return std::make_unique<coll::CollectiveBenchDevice>(
      coll::make_collective_engine(session_.scenario().cluster, session_.topology(), options_, layouts_), call_, stats_);
}

void CollectiveSizeWorkload::record(const FinishedRun& run, pdes::StatisticRegistry& registry) {
  registry.values("first_start_ps", "ps", "when the first member started", pdes::Combine::min).record(stats_.first_start);
  registry.values("last_end_ps", "ps", "when the last member finished", pdes::Combine::max).record(stats_.last_end);
  registry.values("members_completed", "devices", "members that finished the call", pdes::Combine::sum)
      .record(stats_.completed);
  // The same on every member; ranks without members hold `automatic`, the smallest.
  registry.values("algorithm", "", "the algorithm that ran (accelerator::Algorithm)", pdes::Combine::max)
      .record(static_cast<std::uint64_t>(stats_.algorithm));
  registry.values("events_processed", "events", "engine events of this size's run", pdes::Combine::sum)
      .record(run.engine_stats.events_processed);
}

void CollectiveSizeWorkload::finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) {
  const auto& bench = session_.scenario().workload.collective;
  const std::uint64_t bytes = call_.bytes;
  const std::size_t n = call_.members.size();
  const std::uint64_t completed = figures["members_completed"].values[0];
  if (completed != n)
    throw pdes::SimulationError(0, fmt::format("collective of {} bytes: {} of {} members finished before the run's end",
                                               bytes, completed, n));
  point_.time = figures["last_end_ps"].values[0] - figures["first_start_ps"].values[0];
  point_.algorithm = static_cast<Algorithm>(figures["algorithm"].values[0]);
  const coll::CallPlan plan = coll::plan_call(session_.scenario().cluster, call_, options_);
  point_.channels = plan.channels;
  point_.pieces = plan.pieces;
  // NCCL's model covers its ring (broadcast and reduce: their chain), tree and NVLS; its all-to-all,
  // gather, scatter and sendrecv are grouped point-to-point, which it does not model.
  const bool nccl_algorithm =
      point_.algorithm == Algorithm::ring || point_.algorithm == Algorithm::tree || point_.algorithm == Algorithm::nvls;
  if (nccl_algorithm && !models::accelerator::is_point_to_point(bench.op) && bytes > 0)
    point_.predicted_seconds = coll::predict(bench.op, point_.algorithm, bytes, figures_).seconds;
  if (point_.time > 0) {
    point_.algbw = static_cast<double>(bytes) / pdes::to_seconds(point_.time);
    point_.busbw = point_.algbw * coll::bus_bandwidth_factor(bench.op, static_cast<std::uint32_t>(n));
  }
  point_.events = figures["events_processed"].values[0];
  point_.windows = run.engine_stats.windows;
  point_.final_time = run.engine_stats.final_time;
  point_.engine = pdes::gather_stats(run.comm, run.engine_stats);
}

}  // namespace rackscale::sim
