#include "models/network/flow_path_cache.hpp"

#include <algorithm>
#include <limits>

#include "models/network/output_port.hpp"
#include "models/network/path.hpp"
#include "models/network/router.hpp"

namespace rackscale::models::network {

namespace {
// Sixteen entries per device (a ring's device keeps a flow per channel to its neighbour: up to 8 keys,
// at most half the entries), in sets of two: a power of two from 2^11 to 2^18 sets (64 MiB).
unsigned bits_for(std::size_t devices) {
  unsigned bits = 11;
  while (bits < 18 && (std::size_t{1} << bits) < 8 * devices) ++bits;
  return bits;
}

bool holds(const FlowPathCache::Path& entry, NodeId src, NodeId dst, std::uint64_t key) noexcept {
  return entry.src == src && entry.dst == dst && entry.key == key;
}
}  // namespace

std::size_t FlowPathCache::table_bytes(std::size_t devices) noexcept {
  return (std::size_t{1} << bits_for(devices)) * kWays * sizeof(Path);
}

FlowPathCache::Path* FlowPathCache::lookup(NodeId src, NodeId dst, std::uint64_t flow) {
  if (paths_.empty()) {
    bits_ = bits_for(topology_.device_count());
    paths_.resize((std::size_t{1} << bits_) * kWays);
  }
  // Entries are keyed by the router's path key rather than the flow: a pipeline's or a context-parallel
  // ring's transfers each have a flow of their own and would otherwise each miss, while they take one of
  // the few paths the routing offers the pair (one for a flow-free pair).
  const std::uint64_t path_key = topology_.router->path_key(src, dst, flow);
  const std::uint64_t hash = ((static_cast<std::uint64_t>(src) << 32 | dst) ^ (path_key * 0xC2B2'AE3D'27D4'EB4FULL)) *
                            0x9E37'79B9'7F4A'7C15ULL;
  Path* const set = &paths_[(hash >> (64 - bits_)) * kWays];
  if (holds(set[0], src, dst, path_key)) return set[0].hops == 0 ? nullptr : &set[0];
  if (holds(set[1], src, dst, path_key)) {
    std::swap(set[0], set[1]);  // the one used last first
    return set[0].hops == 0 ? nullptr : &set[0];
  }

  ++walks_;
  Path path;
  path.src = src;
  path.dst = dst;
  path.key = path_key;
  path.bottleneck = std::numeric_limits<double>::infinity();
  std::uint32_t hops = 0;
  walk_route(topology_, src, dst, topology_.router->start(src, dst, flow, 0), [&](std::uint32_t id, const Port& port) {
    path.latency += port.latency;
    path.bottleneck = std::min(path.bottleneck, port.bandwidth);
    if (hops < kMaxHops) path.ports[hops] = id;
    ++hops;
  });
  path.hops = hops <= kMaxHops ? hops : 0;
  set[1] = set[0];  // the one used less recently leaves
  set[0] = path;
  return set[0].hops == 0 ? nullptr : &set[0];
}

const FlowPathCache::Path* FlowPathCache::find_sized(NodeId src, NodeId dst, std::uint64_t flow, std::uint64_t bytes) {
  Path* const path = lookup(src, dst, flow);
  if (path == nullptr || path->sized_bytes == bytes) return path;
  for (std::uint32_t hop = 0; hop < path->hops; ++hop)
    path->serialize[hop] = serialization_time(bytes, topology_.ports[path->ports[hop]].bandwidth);
  path->sized_bytes = bytes;
  return path;
}

pdes::SimTime FlowPathCache::max_serialize(const Path& path) noexcept {
  pdes::SimTime most = 0;
  for (std::uint32_t hop = 0; hop < path.hops; ++hop) most = std::max(most, path.serialize[hop]);
  return most;
}

}  // namespace rackscale::models::network
