#include "models/network/flow_path_cache.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/router.hpp"

namespace rackscale::models::network {

namespace {
// Eight entries per device (a ring's device keeps a flow per channel to each neighbour: 8 to 16 keys), a
// power of two from 2^12 to 2^18 entries (16 MiB).
unsigned bits_for(std::size_t devices) {
  unsigned bits = 12;
  while (bits < 18 && (std::size_t{1} << bits) < 8 * devices) ++bits;
  return bits;
}
}  // namespace

std::size_t FlowPathCache::table_bytes(std::size_t devices) noexcept {
  return (std::size_t{1} << bits_for(devices)) * sizeof(Path);
}

const FlowPathCache::Path* FlowPathCache::find(NodeId src, NodeId dst, std::uint64_t flow) {
  if (paths_.empty()) {
    bits_ = bits_for(topology_.device_count());
    paths_.resize(std::size_t{1} << bits_);
  }
  const std::uint64_t key = ((static_cast<std::uint64_t>(src) << 32 | dst) ^ (flow * 0xC2B2'AE3D'27D4'EB4FULL)) *
                            0x9E37'79B9'7F4A'7C15ULL;
  Path& slot = paths_[key >> (64 - bits_)];
  if (slot.src == src && slot.dst == dst && slot.flow == flow) return slot.hops == 0 ? nullptr : &slot;

  Path path;
  path.src = src;
  path.dst = dst;
  path.flow = flow;
  path.bottleneck = std::numeric_limits<double>::infinity();
  RouteTag tag = topology_.router->start(src, dst, flow, 0);
  std::uint32_t hops = 0;
  for (NodeId at = src; at != dst; ++hops) {
    if (hops > topology_.nodes.size())
      throw std::logic_error(fmt::format("routing loop from node {} to node {} (router {})", src, dst,
                                         topology_.router->name()));
    const PortIndex index = topology_.router->next_port(at, dst, tag);
    const std::uint32_t id = topology_.port_id(at, index);
    const Port& port = topology_.ports[id];
    path.latency += port.latency;
    path.bottleneck = std::min(path.bottleneck, port.bandwidth);
    if (hops < kMaxHops) path.ports[hops] = id;
    at = port.peer;
  }
  path.hops = hops <= kMaxHops ? hops : 0;
  slot = path;
  return slot.hops == 0 ? nullptr : &slot;
}

}  // namespace rackscale::models::network
