#include "models/network/degraded_links.hpp"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/network/network_lps.hpp"
#include "models/network/rerouting_router.hpp"

namespace rackscale::models::network {
namespace {

NodeId owner_of(const Topology& topology, std::uint32_t port) { return topology.ports[reverse_port(topology, port)].peer; }

// "cluster.degraded_links[2].link: link 41 (leaf switch node 20 (rack 5) - spine switch node 28 (rack 6)) is
// down and no route remains"
std::string no_route(const Topology& topology, std::size_t entry, std::uint32_t port) {
  return fmt::format("cluster.degraded_links[{}].link: link {} ({} - {}) is down and no route remains", entry, port,
                     describe_node(topology, owner_of(topology, port)),
                     describe_node(topology, topology.ports[port].peer));
}

// The entry of `links` that took `port`'s cable down.
std::size_t entry_of(const Topology& topology, std::span<const DegradedLink> links, std::uint32_t port) {
  const std::uint32_t back = reverse_port(topology, port);
  for (std::size_t i = 0; i < links.size(); ++i)
    if (links[i].fraction == 0 && (links[i].port == port || links[i].port == back)) return i;
  return 0;  // unreachable: `port` is down because an entry took it down
}

// The NIC port of device node `device` (towards a scale-out switch), nullopt for a device without one
// (a single scale-up domain, a torus).
std::optional<PortIndex> nic_port(const Topology& topology, NodeId device) {
  const auto ports = topology.ports_of(device);
  for (PortIndex i = 0; i < ports.size(); ++i)
    if (ports[i].link_class == LinkClass::nic) return i;
  return std::nullopt;
}

// Throws when a pair of devices is left without a route (degrade_links).
void check_routes_remain(const Topology& topology, const ReroutingRouter& router, std::span<const DegradedLink> links);

}  // namespace

std::uint32_t reverse_port(const Topology& topology, std::uint32_t port) {
  const Port& p = topology.ports[port];
  return topology.port_id(p.peer, p.peer_port);
}

void degrade_links(Topology& topology, std::span<const DegradedLink> links) {
  std::vector<bool> down;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DegradedLink& link = links[i];
    if (link.port >= topology.ports.size())
      throw std::invalid_argument(fmt::format("cluster.degraded_links[{}].link: expected a port id below {} (the "
                                              "topology's ports), found {}",
                                              i, topology.ports.size(), link.port));
    if (!(link.fraction >= 0 && link.fraction <= 1))
      throw std::invalid_argument(
          fmt::format("cluster.degraded_links[{}].fraction: expected a fraction in [0, 1], found {}", i, link.fraction));
    const std::uint32_t back = reverse_port(topology, link.port);
    if (link.fraction == 0) {
      // Down: the rate stays (a route that still crossed it would be a bug, not a slow link), the
      // router keeps routes off it.
      down.resize(topology.ports.size(), false);
      down[link.port] = true;
      down[back] = true;
      continue;
    }
    // A cable listed twice (by either of its ports) is degraded twice: the fractions multiply.
    topology.ports[link.port].bandwidth *= link.fraction;
    topology.ports[back].bandwidth *= link.fraction;
  }
  if (down.empty()) return;
  auto router = std::make_unique<ReroutingRouter>(topology, std::move(topology.router), std::move(down));
  check_routes_remain(topology, *router, links);
  topology.router = std::move(router);
}

namespace {
void check_routes_remain(const Topology& topology, const ReroutingRouter& router, std::span<const DegradedLink> links) {
  // A device's own cable: every routing here sends a device's traffic to a given peer out of one fixed
  // port (its NIC, its scale-up port, its torus port in dimension order).
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (links[i].fraction != 0) continue;
    const std::uint32_t port = links[i].port;
    for (const NodeId end : {owner_of(topology, port), topology.ports[port].peer}) {
      if (topology.nodes[end].kind != NodeKind::device) continue;
      throw std::invalid_argument(
          fmt::format("{}: it is a cable of {}, and the routing ({}) has no alternative to a device's own cable",
                      no_route(topology, i, port), describe_node(topology, end), router.name()));
    }
  }
  // Switch-to-switch cables: one pair of devices per ordered pair of first-hop switches, the destination
  // one its source reaches through its NIC (not over their scale-up domain, which a rail-optimized tree's
  // leaves share).
  std::map<NodeId, std::vector<NodeId>> under;  // first-hop switch -> its devices' nodes, in id order
  for (const NodeId device : topology.devices)
    if (const auto nic = nic_port(topology, device)) under[topology.port(device, *nic).peer].push_back(device);
  for (const auto& [from_switch, sources] : under) {
    const NodeId src = sources.front();
    const PortIndex src_nic = *nic_port(topology, src);
    for (const auto& [to_switch, destinations] : under) {
      if (to_switch == from_switch) continue;
      for (const NodeId dst : destinations) {
        RouteTag tag = router.routing().start(src, dst, 0, 0);
        if (router.routing().next_port(src, dst, tag) != src_nic) continue;
        if (!router.surviving_tag(src, dst, 0, 0)) {
          const std::uint32_t port = *router.first_down_port(src, dst, router.routing().start(src, dst, 0, 0));
          throw std::invalid_argument(fmt::format(
              "{} from {} to {}: each of the {} routes the routing ({}) offers them that were tried crosses a link "
              "that is down",
              no_route(topology, entry_of(topology, links, port), port), describe_node(topology, src),
              describe_node(topology, dst), kRerouteAttempts + 1, router.name()));
        }
        break;
      }
    }
  }
}

}  // namespace

}  // namespace rackscale::models::network
