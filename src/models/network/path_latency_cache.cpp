#include "models/network/path_latency_cache.hpp"

#include "models/network/path.hpp"

namespace rackscale::models::network {

PathLatencyCache::PathLatencyCache(const Topology& topology, unsigned bits)
    : topology_(topology), bits_(bits), entries_(std::size_t{1} << bits) {}

pdes::SimTime PathLatencyCache::between(NodeId src, NodeId dst) {
  const std::uint64_t pair = (static_cast<std::uint64_t>(src) << 32) | dst;
  Entry& e = entries_[(pair * 0x9E3779B97F4A7C15ULL) >> (64 - bits_)];
  if (e.pair != pair) e = {pair, path_figures(topology_, src, dst, 0).latency};
  return e.latency;
}

}  // namespace rackscale::models::network
