#pragma once
// Halving-doubling (Rabenseifner 2004; Thakur, Rabenseifner & Gropp 2005, as in MPICH): all-reduce as
// a reduce-scatter by recursive vector halving followed by an all-gather by recursive vector doubling.
//
// For p = 2^k members: reduce-scatter step i (i = 0 .. k-1) exchanges with the member at distance 2^i
// (rank XOR 2^i) half of the block still held, keeping the other half and reducing into it (S/2, S/4,
// ..., S/p); the all-gather retraces the steps in reverse (distance 2^(k-1) down to 1), each doubling
// the block. Distances grow from 1, so the largest exchanges are between neighbouring ranks, which
// share a scale-up domain when the members come domain by domain. Without contention and with one
// channel: all-reduce takes 2 k a + 2 (p - 1) / p * S / B; reduce-scatter and all-gather half of it.
//
// Other p (all-reduce only), as MPICH does: with p' the largest power of two below p and r = p - p',
// the first 2r ranks pair up; each even one sends its whole buffer to the odd one above it (step 0),
// the p' remaining ranks run the algorithm above, and each odd rank returns the result to its even
// partner (the last step). Reduce-scatter and all-gather with p not a power of two fall back to the ring.
#include <cstdint>
#include <memory>
#include <span>

#include "models/vocabulary/program.hpp"
#include "models/collectives/step_machine.hpp"

namespace rackscale::models::collectives {

[[nodiscard]] bool is_power_of_two(std::uint32_t n) noexcept;

// kind: all_reduce (any p), reduce_scatter or all_gather (p a power of two).
[[nodiscard]] std::unique_ptr<StepPlan> make_halving_doubling_plan(accelerator::CollectiveKind kind,
                                                                   std::span<const std::uint32_t> members,
                                                                   std::uint32_t rank);

}  // namespace rackscale::models::collectives
