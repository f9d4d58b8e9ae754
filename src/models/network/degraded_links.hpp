#pragma once
// Degraded cables (cluster.degraded_links, issue 26 item 1): a cable running at a fraction of its rate,
// as a flapping optic renegotiated down or a link with errors retransmitting does, or down (fraction 0).
// Applied to the built topology's ports, so every fidelity that serializes on a port (analytical paths'
// bottleneck, chunk and train fidelity's queues) sees the lower rate, and the results file's /links shows
// it. A cable that is down keeps its rate but carries nothing: the topology's router is wrapped in a
// ReroutingRouter (rerouting_router.hpp) that moves the routes crossing it onto the routing's other
// routes for the same pair, which every fidelity asks.
#include <span>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// Both directions of each link's cable at `fraction` of their bandwidth, or down for fraction 0. Throws
// std::invalid_argument (message starting with "cluster.degraded_links[i]") for a port id outside the
// topology, a fraction outside [0, 1], or a cable down that leaves some pair of devices without a route,
// before anything is simulated. That is: a cable of a device (its NIC, scale-up or torus link: no routing
// here has an alternative to a device's own cable), or a switch-to-switch cable all of whose alternatives
// for some pair are down too. Switch-to-switch cables are checked on one pair of devices per ordered pair
// of first-hop switches (a device's NIC's switch): the routings choose among switch links by the
// destination's switch, not by the device under it.
void degrade_links(Topology& topology, std::span<const DegradedLink> links);

// The port id of the cable's other direction.
[[nodiscard]] std::uint32_t reverse_port(const Topology& topology, std::uint32_t port);

}  // namespace rackscale::models::network
