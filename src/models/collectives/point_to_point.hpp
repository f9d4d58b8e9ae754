#pragma once
// The collectives nccl-tests builds from grouped point-to-point calls (ncclSend / ncclRecv inside one
// group), p members, S bytes as nccl-tests counts them:
//
//   gather    every member but the root sends its part (S / p) to the root; the root receives p - 1
//             parts. All sends are posted at once: the root's port takes them one after another.
//   scatter   the root sends each other member its part (S / p), to the members after it in turn (as
//             NCCL's point-to-point schedule does: round s to the member s places on); its port sends
//             them one after another.
//   sendrecv  every member sends S to the next member (rank + 1 mod p) and receives S from the previous
//             one, both at once.
//
// Without contention, on a fabric of latency a and bandwidth B, with the root's port the only one that
// carries more than one part: gather and scatter take a + (p - 1) S / (p B), sendrecv a + S / B.
// Analytical fidelity has no receiver-side queue (docs/network.md), so there a gather run as messages
// delivers its p - 1 parts together (a + S / (p B)); chunk fidelity and the closed form count the root's
// port.
#include <cstdint>
#include <memory>
#include <span>

#include "models/collectives/step_machine.hpp"

namespace rackscale::models::collectives {

// Steps are p - 1 rounds: in round s the root takes the part of the member s + 1 places after it.
[[nodiscard]] std::unique_ptr<StepPlan> make_gather_plan(std::span<const std::uint32_t> members, std::uint32_t rank,
                                                         std::uint32_t root);
[[nodiscard]] std::unique_ptr<StepPlan> make_scatter_plan(std::span<const std::uint32_t> members, std::uint32_t rank,
                                                          std::uint32_t root);
// One step: send to the next member, receive from the previous one.
[[nodiscard]] std::unique_ptr<StepPlan> make_sendrecv_plan(std::span<const std::uint32_t> members, std::uint32_t rank);

}  // namespace rackscale::models::collectives
