#pragma once
// Ring algorithms (Patarasuk & Yuan 2009; NCCL's ring): p members in a ring, each sending to its
// successor and receiving from its predecessor.
//
//   reduce-scatter  p - 1 steps; the data is cut into p segments. At step s the member at ring position
//                   q sends segment (q - s) mod p (its own, reduced with what it received at step
//                   s - 1) and receives segment (q - s - 1) mod p. It ends owning segment (q + 1) mod p.
//   all-gather      p - 1 steps; at step j it sends segment (q + 1 - j) mod p (its own first, then what it
//                   received at step j - 1) and receives segment (q - j) mod p.
//   all-reduce      reduce-scatter then all-gather: 2 (p - 1) steps, each moving S / p.
//   broadcast       a pipelined chain along the ring from the root: every member forwards each piece as
//                   soon as it has it.
//   reduce          the same chain the other way round, from the root's successor to the root: every
//                   member adds its own data to each piece it receives and forwards the sum (NCCL's
//                   ring reduce); the root ends with the sum.
//
// Without contention, one channel and no pipelining, a step takes a + (S / p) / B on a fabric of
// latency a and bandwidth B, so all-reduce takes 2 (p - 1) (a + S / (p B)); reduce-scatter and
// all-gather (p - 1) (a + S / (p B)); a broadcast or reduce of P pieces (p - 1) a + (p + P - 2) S / (P B).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/collectives/step_machine.hpp"

namespace rackscale::models::collectives {

// kind: all_reduce, reduce_scatter or all_gather.
[[nodiscard]] std::unique_ptr<StepPlan> make_ring_plan(accelerator::CollectiveKind kind, const MemberLayout& layout,
                                                       std::span<const std::uint32_t> members, std::uint32_t rank,
                                                       std::uint32_t channels);

[[nodiscard]] std::unique_ptr<StepPlan> make_chain_broadcast_plan(const MemberLayout& layout,
                                                                  std::span<const std::uint32_t> members,
                                                                  std::uint32_t rank, std::uint32_t root,
                                                                  std::uint32_t channels);
[[nodiscard]] std::unique_ptr<StepPlan> make_chain_reduce_plan(const MemberLayout& layout,
                                                               std::span<const std::uint32_t> members,
                                                               std::uint32_t rank, std::uint32_t root,
                                                               std::uint32_t channels);

}  // namespace rackscale::models::collectives
