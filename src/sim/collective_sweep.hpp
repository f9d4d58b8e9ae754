#pragma once
// An nccl-tests sweep on the session's cluster: for every size of the sweep (min_bytes, times
// step_factor or plus step_bytes, up to max_bytes; rounded as nccl-tests rounds it for the op and data
// type, collectives/bench_sizes.hpp), a fresh engine run of one call over the first `devices` devices
// (sim/collective_size_workload.hpp). Checkpoints hold the sweep's position (the size it is at, the
// windows of the sizes before, their results) in front of the size's engine; a restart skips to it.
// Results are identical for any rank count.
#include "models/collectives/collective_report.hpp"
#include "sim/session.hpp"

namespace rackscale::sim {

// Collective. Throws std::invalid_argument (bad scenario, before simulating; messages start with the
// config key at fault), pdes::CheckpointRefused, RunStopped and pdes::SimulationError.
[[nodiscard]] models::collectives::CollectiveReport run_collective_sweep(Session& session);

}  // namespace rackscale::sim
