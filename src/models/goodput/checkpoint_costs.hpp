#pragma once
// What a job's checkpoint costs (docs/goodput.md, "Checkpoints"): its write and reload on the checkpoint
// store, the job's pause per checkpoint, and a restart. Shared by the Monte Carlo (`rackscale goodput`)
// and the closed form (expected_run.hpp), so that both see the same job.
#include <cstdint>

#include "models/goodput/expected_run.hpp"
#include "models/goodput/goodput_spec.hpp"
#include "models/goodput/run_plan.hpp"

namespace rackscale::models::goodput {

struct CheckpointCosts {
  double storage_Bps = 0;  // min(bandwidth, nodes x per_node_bandwidth)
  double write_s = 0;      // bytes / storage_Bps
  double stall_s = 0;      // synchronous: the write; asynchronous: (1 - overlap) of it
  double restart_s = 0;    // relaunch + reload (reading what was written)
};

[[nodiscard]] CheckpointCosts checkpoint_costs(const GoodputSpec& spec, std::uint64_t nodes, std::uint64_t bytes);

// The closed form's inputs for a job of these components and this checkpoint size.
[[nodiscard]] ExpectedRunModel expected_run_model(const GoodputSpec& spec, const JobComponents& job,
                                                  std::uint64_t checkpoint_bytes);

}  // namespace rackscale::models::goodput
