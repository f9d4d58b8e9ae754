#include "models/collectives/binary_tree.hpp"

#include <bit>

namespace rackscale::models::collectives {

TreeLinks binary_tree(std::uint32_t n, std::uint32_t rank) noexcept {
  TreeLinks links;
  if (n <= 1) return links;
  if (rank == 0) {
    links.children[0] = std::bit_ceil(n) / 2;
    return links;
  }
  const std::uint32_t bit = rank & (~rank + 1);  // lowest set bit
  const std::uint32_t up = (rank ^ bit) | (bit << 1);
  links.parent = up < n ? up : rank ^ bit;
  std::uint32_t low = bit >> 1;
  if (low == 0) return links;
  links.children[0] = rank - low;
  while (low > 0 && rank + low >= n) low >>= 1;
  if (low > 0) links.children[1] = rank + low;
  return links;
}

TreeLinks double_binary_tree(std::uint32_t n, std::uint32_t rank, std::uint32_t tree) noexcept {
  if (tree == 0) return binary_tree(n, rank);
  const bool mirror = n % 2 == 0;
  const auto to_a = [&](std::uint32_t r) { return mirror ? n - 1 - r : (r + n - 1) % n; };
  const auto from_a = [&](std::uint32_t r) { return r == kNoRank ? kNoRank : (mirror ? n - 1 - r : (r + 1) % n); };
  const TreeLinks a = binary_tree(n, to_a(rank));
  TreeLinks b;
  b.parent = from_a(a.parent);
  b.children = {from_a(a.children[0]), from_a(a.children[1])};
  return b;
}

}  // namespace rackscale::models::collectives
