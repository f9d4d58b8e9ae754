#include "models/network/degraded_links.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {

std::uint32_t reverse_port(const Topology& topology, std::uint32_t port) {
  const Port& p = topology.ports[port];
  return topology.port_id(p.peer, p.peer_port);
}

void degrade_links(Topology& topology, std::span<const DegradedLink> links) {
  for (std::size_t i = 0; i < links.size(); ++i) {
    const DegradedLink& link = links[i];
    if (link.port >= topology.ports.size())
      throw std::invalid_argument(fmt::format("cluster.degraded_links[{}].link: expected a port id below {} (the "
                                              "topology's ports), found {}",
                                              i, topology.ports.size(), link.port));
    if (!(link.fraction > 0 && link.fraction <= 1))
      throw std::invalid_argument(
          fmt::format("cluster.degraded_links[{}].fraction: expected a fraction in (0, 1], found {}", i, link.fraction));
    // A cable listed twice (by either of its ports) is degraded twice: the fractions multiply.
    topology.ports[link.port].bandwidth *= link.fraction;
    topology.ports[reverse_port(topology, link.port)].bandwidth *= link.fraction;
  }
}

}  // namespace rackscale::models::network
