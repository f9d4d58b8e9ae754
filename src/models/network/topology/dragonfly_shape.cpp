#include "models/network/topology/dragonfly_shape.hpp"

#include <limits>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {
namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

DragonflyShape plan_dragonfly(const ClusterSpec& cluster, NodeId first_node) {
  const DragonflySpec& spec = cluster.scale_out.dragonfly;
  const std::uint32_t radix = cluster.scale_out.switch_spec.radix;
  const std::uint64_t nics = std::uint64_t{cluster.nodes} * cluster.nics_per_node;
  // The balanced dragonfly's p = h = floor((k + 1) / 4), a = 2p: every port of a (4p - 1)-port router used.
  const std::uint64_t balanced = (std::uint64_t{radix} + 1) / 4;
  const std::uint64_t p = spec.terminals_per_router != 0 ? spec.terminals_per_router : balanced;
  if (p == 0) {
    spec_error("cluster.scale_out.switch.radix",
               "a dragonfly sized to its endpoints needs routers of at least 3 ports (p = h = floor((k + 1) / 4) "
               "terminals and global ports, a = 2p routers per group); the switch has {}",
               radix);
  }
  const std::uint64_t h = spec.global_links_per_router != 0 ? spec.global_links_per_router : p;
  // The fewest groups of (at most) a routers that hold the NICs, then the fewest routers per group that hold
  // a group's share.
  const std::uint64_t most_routers = spec.routers_per_group != 0 ? spec.routers_per_group : 2 * p;
  const std::uint64_t g = spec.groups != 0 ? spec.groups : ceil_div(nics, most_routers * p);
  const std::uint64_t a = spec.routers_per_group != 0 ? spec.routers_per_group : ceil_div(nics, g * p);
  if (g * a * p < nics) {
    spec_error("cluster.scale_out.dragonfly",
               "groups x routers_per_group x terminals_per_router = {} x {} x {} = {} terminals hold fewer than "
               "cluster.nodes x cluster.nics_per_node = {} x {} = {} NICs",
               g, a, p, g * a * p, cluster.nodes, cluster.nics_per_node, nics);
  }
  if (g * a > nics) {
    spec_error("cluster.scale_out.dragonfly",
               "groups x routers_per_group = {} x {} = {} routers for {} NICs: a router would have no terminal", g, a,
               g * a, nics);
  }
  if (g > a * h + 1) {
    spec_error("cluster.scale_out.dragonfly.groups",
               "{} routers per group with {} global links each connect at most a*h+1 = {} groups ({} NICs at {} "
               "terminals per router); got {}",
               a, h, a * h + 1, (a * h + 1) * a * p, p, g);
  }
  const std::uint64_t terminals = ceil_div(nics, g * a);
  const std::uint64_t ports = terminals + (a - 1) + (g > 1 ? h : 0);
  if (ports > radix || radix > std::numeric_limits<PortIndex>::max()) {
    spec_error("cluster.scale_out.switch.radix",
               "a dragonfly router needs terminals + local + global = {} + {} + {} = {} ports, at most {}; the switch "
               "has {}",
               terminals, a - 1, g > 1 ? h : 0, ports, std::numeric_limits<PortIndex>::max(), radix);
  }
  DragonflyShape shape;
  shape.groups = static_cast<std::uint32_t>(g);
  shape.routers_per_group = static_cast<std::uint32_t>(a);
  shape.endpoint_count = static_cast<std::uint32_t>(nics);
  shape.global_ports = static_cast<std::uint32_t>(h);
  shape.links_per_pair = g > 1 ? static_cast<std::uint32_t>(a * h / (g - 1)) : 0;
  shape.radix = radix;
  shape.first_node = first_node;
  return shape;
}

}  // namespace rackscale::models::network
