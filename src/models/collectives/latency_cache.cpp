#include "models/collectives/latency_cache.hpp"

#include "models/network/path.hpp"

namespace rackscale::models::collectives {

pdes::SimTime LatencyCache::between(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t pair = (static_cast<std::uint64_t>(a) << 32) | b;
  Entry& e = entries_[(pair * 0x9E3779B97F4A7C15ULL) >> (64 - kBits)];
  if (e.pair != pair)
    e = {pair, network::path_figures(topology_, topology_.devices[a], topology_.devices[b], 0).latency};
  return e.latency;
}

}  // namespace rackscale::models::collectives
