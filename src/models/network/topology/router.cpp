#include "models/network/router.hpp"

namespace rackscale::models::network {
namespace {
// SplitMix64's finalizer: consecutive inputs give unrelated outputs, so hashes of nearby flow ids
// spread evenly over equal-cost ports.
constexpr std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}
}  // namespace

std::uint64_t route_hash(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) noexcept {
  return mix(mix(mix(mix(a) ^ b) ^ c) ^ d);
}

}  // namespace rackscale::models::network
