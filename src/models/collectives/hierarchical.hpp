#pragma once
// Hierarchical all-reduce (as in Horovod's and NCCL's hierarchical modes, and 2D-ring all-reduce): with
// the members in N scale-up domains of L members each,
//   1. ring reduce-scatter inside each domain: L - 1 steps of S / L; member j of a domain ends owning
//      one reduced L-th of the buffer;
//   2. ring all-reduce of that L-th among the N members of local index j (one member per domain, so
//      L such rings run side by side, each on its own NIC): 2 (N - 1) steps of S / (L N);
//   3. ring all-gather inside each domain: L - 1 steps of S / L.
// Each phase starts once the phase before has delivered all of its data to this member. Without
// contention and with one channel, on scale-up latency a1 and bandwidth B1 and scale-out a2 and B2:
//   T = 2 (L - 1) (a1 + S / (L B1)) + 2 (N - 1) (a2 + S / (L N B2)).
// Needs a regular layout with L > 1 and N > 1; the engine falls back to the ring otherwise.
#include <cstdint>
#include <memory>
#include <span>

#include "models/collectives/member_layout.hpp"
#include "models/collectives/step_machine.hpp"

namespace rackscale::models::collectives {

// `inter_pieces`: pieces per message of the inter-domain ring (its messages are N times smaller than
// the others, so they get fewer pieces).
[[nodiscard]] std::unique_ptr<StepPlan> make_hierarchical_plan(const MemberLayout& layout,
                                                               std::span<const std::uint32_t> members,
                                                               std::uint32_t rank, std::uint32_t inter_pieces);

}  // namespace rackscale::models::collectives
