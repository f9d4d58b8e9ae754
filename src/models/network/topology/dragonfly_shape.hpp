#pragma once
// The counts, node numbering and port order of a dragonfly (Kim, Dally, Scott, Abts, ISCA 2008),
// shared by its builder and router.
//
// g groups of a routers; router r of group G is node first_node + G*a + r and serves the p endpoints
// (G*a + r)*p + t at ports t. Its ports: p terminals, then a-1 local ports (port p + r' for peers
// r' < r, p + r' - 1 for r' > r), then its used global ports.
//
// Global links, "consecutive" arrangement: group G numbers its a*h global ports k = r*h + j (router r,
// its j-th). With m = floor(a*h / (g-1)) links per pair of groups, port k < m*(g-1) links group G to
// group G + o (mod g), o = k mod (g-1) + 1, as instance i = k / (g-1) of that pair; it meets port
// i*(g-1) + (g-o-1) of the other group, whose offset back is g-o. So every pair of groups has exactly
// m >= 1 links, and the a*h - m*(g-1) spare ports (the highest k, on the last routers) stay unused.
#include <algorithm>
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct DragonflyShape {
  std::uint32_t groups = 1;             // g
  std::uint32_t routers_per_group = 1;  // a
  std::uint32_t terminals = 1;          // p
  std::uint32_t global_ports = 0;       // h per router
  std::uint32_t links_per_pair = 0;     // m; 0 when there is a single group
  std::uint32_t radix = 0;
  NodeId first_node = 0;

  [[nodiscard]] std::uint32_t routers() const noexcept { return groups * routers_per_group; }
  [[nodiscard]] std::uint32_t endpoints() const noexcept { return routers() * terminals; }
  [[nodiscard]] std::uint32_t used_global_slots() const noexcept { return links_per_pair * (groups - 1); }
  [[nodiscard]] NodeId router_node(std::uint32_t group, std::uint32_t router) const noexcept {
    return first_node + group * routers_per_group + router;
  }
  [[nodiscard]] std::uint32_t group_of(std::uint32_t endpoint) const noexcept {
    return endpoint / (routers_per_group * terminals);
  }
  [[nodiscard]] std::uint32_t router_of(std::uint32_t endpoint) const noexcept {
    return endpoint / terminals % routers_per_group;
  }
  [[nodiscard]] std::uint32_t local_port(std::uint32_t router, std::uint32_t peer) const noexcept {
    return terminals + (peer < router ? peer : peer - 1);
  }
  [[nodiscard]] std::uint32_t used_global_ports(std::uint32_t router) const noexcept {
    const std::uint32_t first = router * global_ports;
    const std::uint32_t used = used_global_slots();
    return used <= first ? 0 : std::min(global_ports, used - first);
  }
  [[nodiscard]] std::uint32_t port_count(std::uint32_t router) const noexcept {
    return terminals + routers_per_group - 1 + used_global_ports(router);
  }
  // Group-level global slot k of the group: on router k / h, at this port.
  [[nodiscard]] std::uint32_t global_port(std::uint32_t slot) const noexcept {
    return terminals + routers_per_group - 1 + slot % global_ports;
  }
  // The slot that carries instance `instance` of the links from a group to the group `offset` ahead.
  [[nodiscard]] std::uint32_t global_slot(std::uint32_t offset, std::uint32_t instance) const noexcept {
    return instance * (groups - 1) + offset - 1;
  }
};

// Validates cluster.scale_out.dragonfly and the switch radix; routers are numbered from `first_node`.
[[nodiscard]] DragonflyShape plan_dragonfly(const ClusterSpec& cluster, NodeId first_node);

}  // namespace rackscale::models::network
