#pragma once
// The binary trees of NCCL's double binary tree (Sanders, Speck & Träff 2009; NCCL 2.4): an in-order
// binary tree over ranks 0 .. n-1 and a second tree in which the first tree's leaves are inner nodes.
//
// Tree A. Rank r > 0 with lowest set bit b has children r - b/2 and r + b/2 (the latter, when past the
// end, replaced by r + b/4, r + b/8, ... or dropped), and parent r + b if bit 2b of r is clear and
// r + b < n, else r - b. Rank 0 is the root, with the one child 2^(ceil(log2 n) - 1). Odd ranks are
// leaves; the depth is ceil(log2 n).
// Tree B. For even n the mirror image (rank r plays n - 1 - r of tree A); for odd n the shift (rank r
// plays (r - 1) mod n). Either way every rank is an inner node of at most one of the two trees, so the
// two trees together send and receive the same amount at every rank.
#include <array>
#include <cstdint>

namespace rackscale::models::collectives {

inline constexpr std::uint32_t kNoRank = 0xFFFF'FFFFu;

struct TreeLinks {
  std::uint32_t parent = kNoRank;
  std::array<std::uint32_t, 2> children{kNoRank, kNoRank};
};

[[nodiscard]] TreeLinks binary_tree(std::uint32_t n, std::uint32_t rank) noexcept;
// tree 0: A; tree 1: B.
[[nodiscard]] TreeLinks double_binary_tree(std::uint32_t n, std::uint32_t rank, std::uint32_t tree) noexcept;

}  // namespace rackscale::models::collectives
