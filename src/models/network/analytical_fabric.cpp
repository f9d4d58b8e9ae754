#include "models/network/analytical_fabric.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/network_events.hpp"
#include "models/network/network_node_lp.hpp"
#include "models/network/output_port.hpp"
#include "models/network/path.hpp"

namespace rackscale::models::network {

void AnalyticalFabric::send(NetworkNodeLp& source, const Message& message) {
  const Topology& topology = *context_.topology;
  const NodeId src = topology.devices[message.src_device];
  const NodeId dst = topology.devices[message.dst_device];
  if (send_without_links(source, message, src, dst)) return;
  RouteTag tag = topology.router->start(src, dst, message.flow, 0);
  pdes::SimTime latency = 0;
  double bottleneck = std::numeric_limits<double>::infinity();
  NodeId at = src;
  for (std::size_t hops = 0; at != dst; ++hops) {
    if (hops > topology.nodes.size())
      throw std::logic_error(fmt::format("routing loop from node {} to node {} (router {})", src, dst,
                                         topology.router->name()));
    const PortIndex index = topology.router->next_port(at, dst, tag);
    const Port& port = topology.port(at, index);
    latency += port.latency;
    bottleneck = std::min(bottleneck, port.bandwidth);
    // Every link on the path carries the message; the counters feed link utilization.
    context_.counters.record(topology.port_id(at, index), message.bytes,
                             serialization_time(message.bytes, port.bandwidth), 0);
    at = port.peer;
  }
  source.emit(dst, message.depart_after + latency + serialization_time(message.bytes, bottleneck), kMessageArrival,
              encode_message_arrival(message.id, message.bytes));
}

void AnalyticalFabric::on_event(NetworkNodeLp& node, const pdes::Event& event) {
  if (event.kind != kMessageArrival)
    throw std::logic_error(fmt::format("analytical network: node {} got event kind {}", node.node(), event.kind));
  node.accept_message(event.payload[0], event.payload[1]);
}

}  // namespace rackscale::models::network
