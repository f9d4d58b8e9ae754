#include "models/network/network_lps.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/network/cross_rank_delays.hpp"
#include "models/network/switch_lp.hpp"

namespace rackscale::models::network {

void add_network_lps(pdes::Engine& engine, NetworkContext& context, const BehaviourFactory& make_behaviour) {
  const Topology& topology = *context.topology;
  if (topology.device_count() > kMaxDevices)
    throw std::invalid_argument(fmt::format("cluster.nodes: {} devices exceed the {} a message id can name",
                                            topology.device_count(), kMaxDevices));
  const CrossRankDelays delays(topology, context.spec.fidelity);
  for (NodeId node = 0; node < topology.nodes.size(); ++node) {
    if (!engine.is_local(node)) continue;
    const Node& n = topology.nodes[node];
    for (PortIndex i = 0; i < n.port_count; ++i) {
      const Port& port = topology.port(node, i);
      if (port.latency == 0)
        throw std::invalid_argument(fmt::format("the cable from {} to {} has zero latency; every link needs at "
                                                "least 1 ps",
                                                describe_node(topology, node), describe_node(topology, port.peer)));
      engine.add_link({node, port.peer, delays.of(node, port)});
    }
    if (n.kind == NodeKind::device)
      engine.add_lp(std::make_unique<DeviceLp>(node, context, make_behaviour(n.device)));
    else
      engine.add_lp(std::make_unique<SwitchLp>(node, context));
  }
  engine.set_lp_names([&topology](pdes::LpId lp) { return describe_node(topology, lp); });
}

std::string describe_node(const Topology& topology, NodeId node) {
  if (node >= topology.nodes.size()) return fmt::format("node {}", node);
  const Node& n = topology.nodes[node];
  if (n.kind == NodeKind::device) return fmt::format("device {} (rack {})", n.device, n.rack);
  const char* role = "switch";
  switch (n.role) {
    case SwitchRole::scale_up: role = "scale-up switch"; break;
    case SwitchRole::leaf: role = "leaf switch"; break;
    case SwitchRole::spine: role = "spine switch"; break;
    case SwitchRole::core: role = "core switch"; break;
    case SwitchRole::router: role = "router"; break;
    case SwitchRole::none: break;
  }
  return fmt::format("{} node {} (rack {})", role, node, n.rack);
}

}  // namespace rackscale::models::network
