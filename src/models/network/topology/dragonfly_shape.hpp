#pragma once
// The counts, node numbering and port order of a dragonfly (Kim, Dally, Scott, Abts, ISCA 2008),
// shared by its builder and router.
//
// Sized to its endpoints (docs/network.md, "Dragonfly"): unless the config sets them, p = h =
// floor((k + 1) / 4) terminals and global ports per router and at most a = 2p routers per group (the
// balanced dragonfly, p + (a - 1) + h = 4p - 1 <= k ports), the fewest groups g that hold the E NICs,
// and in each group the fewest routers that hold its share, ceil(E / (g p)).
//
// g groups of a routers; router i = G*a + r (router r of group G) is node first_node + i. The E endpoints
// are spread over the R = g*a routers in order, floor(E/R) each and one more on the first E mod R, so
// that no router is without terminals: router i serves endpoints first_endpoint(i) ... at ports 0, 1, ...
// Its ports: its t_i terminals, then a-1 local ports (port t_i + r' for peers r' < r, t_i + r' - 1 for
// r' > r), then its used global ports. When R divides E (every router full) this is the plain numbering:
// endpoint e on router e / p at port e % p.
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
  std::uint32_t endpoint_count = 1;     // E
  std::uint32_t global_ports = 0;       // h per router
  std::uint32_t links_per_pair = 0;     // m; 0 when there is a single group
  std::uint32_t radix = 0;
  NodeId first_node = 0;

  [[nodiscard]] std::uint32_t routers() const noexcept { return groups * routers_per_group; }
  [[nodiscard]] std::uint32_t endpoints() const noexcept { return endpoint_count; }
  // Terminals of the routers with the fewest (floor(E/R)) and the number of routers with one more.
  [[nodiscard]] std::uint32_t base_terminals() const noexcept { return endpoint_count / routers(); }
  [[nodiscard]] std::uint32_t fuller_routers() const noexcept { return endpoint_count % routers(); }
  // The most terminals a router has: ceil(E/R).
  [[nodiscard]] std::uint32_t max_terminals() const noexcept { return base_terminals() + (fuller_routers() > 0); }
  [[nodiscard]] std::uint32_t used_global_slots() const noexcept { return links_per_pair * (groups - 1); }

  // Routers by their index i = group * a + router.
  [[nodiscard]] std::uint32_t router_index(std::uint32_t group, std::uint32_t router) const noexcept {
    return group * routers_per_group + router;
  }
  [[nodiscard]] NodeId router_node(std::uint32_t group, std::uint32_t router) const noexcept {
    return first_node + router_index(group, router);
  }
  [[nodiscard]] std::uint32_t terminals(std::uint32_t index) const noexcept {
    return base_terminals() + (index < fuller_routers());
  }
  [[nodiscard]] std::uint32_t first_endpoint(std::uint32_t index) const noexcept {
    return index * base_terminals() + std::min(index, fuller_routers());
  }
  // The router index that serves `endpoint`, and the terminal port it is on.
  [[nodiscard]] std::uint32_t router_index_of(std::uint32_t endpoint) const noexcept {
    const std::uint32_t in_fuller = fuller_routers() * (base_terminals() + 1);
    return endpoint < in_fuller ? endpoint / (base_terminals() + 1)
                                : fuller_routers() + (endpoint - in_fuller) / base_terminals();
  }
  [[nodiscard]] std::uint32_t terminal_of(std::uint32_t endpoint) const noexcept {
    return endpoint - first_endpoint(router_index_of(endpoint));
  }
  [[nodiscard]] std::uint32_t group_of(std::uint32_t endpoint) const noexcept {
    return router_index_of(endpoint) / routers_per_group;
  }
  [[nodiscard]] std::uint32_t router_of(std::uint32_t endpoint) const noexcept {
    return router_index_of(endpoint) % routers_per_group;
  }
  [[nodiscard]] std::uint32_t local_port(std::uint32_t group, std::uint32_t router, std::uint32_t peer) const noexcept {
    return terminals(router_index(group, router)) + (peer < router ? peer : peer - 1);
  }
  [[nodiscard]] std::uint32_t used_global_ports(std::uint32_t router) const noexcept {
    const std::uint32_t first = router * global_ports;
    const std::uint32_t used = used_global_slots();
    return used <= first ? 0 : std::min(global_ports, used - first);
  }
  [[nodiscard]] std::uint32_t port_count(std::uint32_t group, std::uint32_t router) const noexcept {
    return terminals(router_index(group, router)) + routers_per_group - 1 + used_global_ports(router);
  }
  // Group-level global slot k of the group: on router k / h, at this port.
  [[nodiscard]] std::uint32_t global_port(std::uint32_t group, std::uint32_t slot) const noexcept {
    return terminals(router_index(group, slot / global_ports)) + routers_per_group - 1 + slot % global_ports;
  }
  // The slot that carries instance `instance` of the links from a group to the group `offset` ahead.
  [[nodiscard]] std::uint32_t global_slot(std::uint32_t offset, std::uint32_t instance) const noexcept {
    return instance * (groups - 1) + offset - 1;
  }
};

// Sizes the dragonfly to the cluster's NICs from cluster.scale_out.dragonfly (its unset counts derived
// as above) and the switch radix, and validates it; routers are numbered from `first_node`.
[[nodiscard]] DragonflyShape plan_dragonfly(const ClusterSpec& cluster, NodeId first_node);

}  // namespace rackscale::models::network
