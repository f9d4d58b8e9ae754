#include "models/network/topology/dragonfly_shape.hpp"

#include <limits>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {

DragonflyShape plan_dragonfly(const ClusterSpec& cluster, NodeId first_node) {
  const DragonflySpec& spec = cluster.scale_out.dragonfly;
  if (spec.routers_per_group == 0) spec_error("cluster.scale_out.dragonfly.routers_per_group", "expected at least 1; got 0");
  if (spec.terminals_per_router == 0) {
    spec_error("cluster.scale_out.dragonfly.terminals_per_router", "expected at least 1; got 0");
  }
  if (spec.groups == 0) spec_error("cluster.scale_out.dragonfly.groups", "expected at least 1; got 0");
  const std::uint64_t a = spec.routers_per_group;
  const std::uint64_t p = spec.terminals_per_router;
  const std::uint64_t h = spec.global_links_per_router;
  const std::uint64_t g = spec.groups;
  if (g > a * h + 1) {
    spec_error("cluster.scale_out.dragonfly.groups",
               "{} routers per group with {} global links each connect at most a*h+1 = {} groups; got {}", a, h,
               a * h + 1, g);
  }
  const std::uint64_t nics = std::uint64_t{cluster.nodes} * cluster.nics_per_node;
  if (g * a * p != nics) {
    spec_error("cluster.scale_out.dragonfly",
               "groups x routers_per_group x terminals_per_router = {} x {} x {} = {} NIC endpoints must equal "
               "cluster.nodes x cluster.nics_per_node = {} x {} = {}",
               g, a, p, g * a * p, cluster.nodes, cluster.nics_per_node, nics);
  }
  const std::uint64_t ports = p + (a - 1) + h;
  const std::uint32_t radix = cluster.scale_out.switch_spec.radix;
  if (ports > radix || radix > std::numeric_limits<PortIndex>::max()) {
    spec_error("cluster.scale_out.switch.radix",
               "a dragonfly router needs terminals + local + global = {} + {} + {} = {} ports, at most {}; the switch "
               "has {}",
               p, a - 1, h, ports, std::numeric_limits<PortIndex>::max(), radix);
  }
  DragonflyShape shape;
  shape.groups = spec.groups;
  shape.routers_per_group = spec.routers_per_group;
  shape.terminals = spec.terminals_per_router;
  shape.global_ports = spec.global_links_per_router;
  shape.links_per_pair = g > 1 ? static_cast<std::uint32_t>(a * h / (g - 1)) : 0;
  shape.radix = radix;
  shape.first_node = first_node;
  return shape;
}

}  // namespace rackscale::models::network
