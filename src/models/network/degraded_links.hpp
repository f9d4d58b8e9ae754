#pragma once
// Degraded cables (cluster.degraded_links, issue 26 item 1): a cable running at a fraction of its rate,
// as a flapping optic renegotiated down or a link with errors retransmitting does. Applied to the built
// topology's ports, so every fidelity that serializes on a port (analytical paths' bottleneck, chunk and
// train fidelity's queues) sees the lower rate, and the results file's /links shows it.
#include <span>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// Both directions of each link's cable at `fraction` of their bandwidth. Throws std::invalid_argument
// (message starting with "cluster.degraded_links[i]") for a port id outside the topology or a fraction
// outside (0, 1].
void degrade_links(Topology& topology, std::span<const DegradedLink> links);

// The port id of the cable's other direction.
[[nodiscard]] std::uint32_t reverse_port(const Topology& topology, std::uint32_t port);

}  // namespace rackscale::models::network
