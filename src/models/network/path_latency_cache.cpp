#include "models/network/path_latency_cache.hpp"

#include "models/network/path.hpp"

namespace rackscale::models::network {

namespace {
unsigned bits_for(std::size_t devices) {
  unsigned bits = 14;
  while (bits < 20 && (std::size_t{1} << bits) < 4 * devices) ++bits;
  return bits;
}
}  // namespace

std::size_t PathLatencyCache::table_bytes(std::size_t devices) noexcept {
  return (std::size_t{1} << bits_for(devices)) * sizeof(Entry);
}

PathLatencyCache::PathLatencyCache(const Topology& topology)
    : topology_(topology), bits_(bits_for(topology.device_count())), entries_(std::size_t{1} << bits_) {}

pdes::SimTime PathLatencyCache::between(NodeId src, NodeId dst) {
  const std::uint64_t pair = (static_cast<std::uint64_t>(src) << 32) | dst;
  Entry& e = entries_[(pair * 0x9E3779B97F4A7C15ULL) >> (64 - bits_)];
  if (e.pair != pair) e = {pair, path_figures(topology_, src, dst, 0).latency};
  return e.latency;
}

}  // namespace rackscale::models::network
