#include "models/network/rerouting_router.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/network/path.hpp"

namespace rackscale::models::network {
namespace {
// Salts the rehashed flow and chunk of each alternative, so attempt a of one flow is not the plain
// route of another flow a.
constexpr std::uint64_t kRerouteSalt = 0x5245524f555445ULL;  // "REROUTE"
}  // namespace

ReroutingRouter::ReroutingRouter(const Topology& topology, std::unique_ptr<Router> routing, std::vector<bool> down)
    : routing_(std::move(routing)), down_(std::move(down)) {
  first_port_.reserve(topology.nodes.size());
  for (const Node& node : topology.nodes) first_port_.push_back(node.first_port);
  peer_.reserve(topology.ports.size());
  for (const Port& port : topology.ports) peer_.push_back(port.peer);
}

// walk_route's loop, over this router's own copy of the ports (the topology that owns the router may
// move, so no reference to it is kept), stopping at the first port that is down; the same loop guard.
std::optional<std::uint32_t> ReroutingRouter::first_down_port(std::uint32_t src, std::uint32_t dst, RouteTag tag) const {
  std::uint32_t hops = 0;
  for (NodeId at = src; at != dst; ++hops) {
    if (hops > first_port_.size()) throw_routing_loop(name(), src, dst);
    const std::uint32_t port = first_port_[at] + routing_->next_port(at, dst, tag);
    if (down_[port]) return port;
    at = peer_[port];
  }
  return std::nullopt;
}

std::optional<RouteTag> ReroutingRouter::surviving_tag(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                                                       std::uint64_t chunk) const {
  const RouteTag own = routing_->start(src, dst, flow, chunk);
  if (!first_down_port(src, dst, own)) return own;
  for (std::uint32_t attempt = 1; attempt <= kRerouteAttempts; ++attempt) {
    const RouteTag other =
        routing_->start(src, dst, route_hash(flow, attempt, kRerouteSalt), route_hash(chunk, attempt, kRerouteSalt));
    if (!first_down_port(src, dst, other)) return other;
  }
  return std::nullopt;
}

RouteTag ReroutingRouter::start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow, std::uint64_t chunk) const {
  if (const auto tag = surviving_tag(src, dst, flow, chunk)) return *tag;
  throw std::runtime_error(fmt::format("cluster.degraded_links: no route remains from node {} to node {} (flow {}): "
                                       "the {} routes ({}) tried all cross a link that is down",
                                       src, dst, flow, kRerouteAttempts + 1, name()));
}

}  // namespace rackscale::models::network
