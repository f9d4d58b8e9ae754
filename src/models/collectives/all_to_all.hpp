#pragma once
// All-to-all as a staggered pairwise exchange: member r sends its S / p bytes for member r + s at step
// s = 1 .. p - 1 and receives from r - s. Every send is posted at once, as NCCL posts a grouped
// send/receive; the device's port (or the engine's pacing in analytical fidelity) serializes them in
// step order, so at any moment each member receives from one sender and nothing contends. Without
// contention: T = a + (p - 1) S / (p B). The member's part for itself is a local copy.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "models/collectives/step_machine.hpp"

namespace rackscale::models::collectives {

[[nodiscard]] std::unique_ptr<StepPlan> make_all_to_all_plan(std::span<const std::uint32_t> members, std::uint32_t rank);

}  // namespace rackscale::models::collectives
