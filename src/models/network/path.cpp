#include "models/network/path.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {

PathFigures path_figures(const Topology& topology, NodeId src, NodeId dst, std::uint64_t flow) {
  PathFigures f;
  if (src == dst) return f;
  f.bottleneck = std::numeric_limits<double>::infinity();
  RouteTag tag = topology.router->start(src, dst, flow, 0);
  for (NodeId at = src; at != dst; ++f.hops) {
    if (f.hops > topology.nodes.size())
      throw std::logic_error(fmt::format("routing loop from node {} to node {} (router {})", src, dst,
                                         topology.router->name()));
    const Port& port = topology.port(at, topology.router->next_port(at, dst, tag));
    f.latency += port.latency;
    f.bottleneck = std::min(f.bottleneck, port.bandwidth);
    at = port.peer;
  }
  return f;
}

}  // namespace rackscale::models::network
