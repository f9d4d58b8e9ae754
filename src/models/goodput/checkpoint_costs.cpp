#include "models/goodput/checkpoint_costs.hpp"

#include <algorithm>
#include <cmath>

#include "models/goodput/checkpoint_schedule.hpp"

namespace rackscale::models::goodput {

CheckpointCosts checkpoint_costs(const GoodputSpec& spec, std::uint64_t nodes, std::uint64_t bytes) {
  CheckpointCosts c;
  c.storage_Bps = spec.storage.bandwidth_Bps;
  if (spec.storage.per_node_bandwidth_Bps > 0)
    c.storage_Bps = std::min(c.storage_Bps, spec.storage.per_node_bandwidth_Bps * static_cast<double>(nodes));
  c.write_s = static_cast<double>(bytes) / c.storage_Bps;
  c.restart_s = pdes::to_seconds(spec.relaunch) + c.write_s;
  // The schedule's own rounding of the stall (whole ps), with an interval long enough not to raise it.
  const auto write = static_cast<pdes::SimTime>(std::llround(c.write_s * 1e12));
  c.stall_s = pdes::to_seconds(make_schedule(pdes::kNever / 8, write, spec.checkpoint.mode == CheckpointMode::asynchronous,
                                             spec.checkpoint.overlap)
                                   .stall);
  return c;
}

ExpectedRunModel expected_run_model(const GoodputSpec& spec, const JobComponents& job, std::uint64_t checkpoint_bytes) {
  const CheckpointCosts costs = checkpoint_costs(spec, static_cast<std::uint64_t>(job.nodes), checkpoint_bytes);
  ExpectedRunModel m;
  m.classes = class_processes(spec.failures, job);
  m.detection_s = pdes::to_seconds(spec.detection);
  m.restart_s = costs.restart_s;
  m.hot_swap_s = pdes::to_seconds(spec.hot_swap);
  m.write_s = costs.write_s;
  m.stall_s = costs.stall_s;
  if (spec.checkpoint.interval) m.interval_s = pdes::to_seconds(*spec.checkpoint.interval);
  return m;
}

}  // namespace rackscale::models::goodput
