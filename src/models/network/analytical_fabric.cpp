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
  const ReplicaMirror& mirror = context_.mirror;
  if (!mirror.simulated(message.dst_device))
    throw std::logic_error(fmt::format("one-replica run: device {} sent {} bytes to device {} of another replica",
                                       message.src_device, message.bytes, message.dst_device));
  // Every link on the path carries the message, and in a one-replica run every link of each twin pair's
  // path carries the twin's (replica_mirror.hpp); the counters feed link utilization. The twins' paths
  // were checked alike before the run for one flow of each pair; a twin whose own flow's path takes
  // another time would make the run differ from simulating every replica, so it stops the run.
  const pdes::SimTime arrival = charge(src, dst, message);
  for (std::uint32_t r = 1; r < mirror.replicas(); ++r) {
    const std::uint32_t sender = mirror.twin(message.src_device, r);
    const std::uint32_t receiver = mirror.twin(message.dst_device, r);
    Message twin = message;
    if (message.flow_names_sender) twin.flow = sender_flow(sender, static_cast<std::uint32_t>(message.flow));
    if (const pdes::SimTime time = charge(topology.devices[sender], topology.devices[receiver], twin); time != arrival)
      throw std::runtime_error(fmt::format(
          "one replica for all: replica {} is not alike: device {}'s {} bytes to device {} take {} on their path, "
          "device {}'s to device {} take {}; use workload.simulated_replicas: all",
          r, sender, message.bytes, receiver, pdes::format_time(time), message.src_device, message.dst_device,
          pdes::format_time(arrival)));
  }
  source.emit(dst, message.depart_after + arrival, kMessageArrival, encode_message_arrival(message.id, message.bytes));
}

pdes::SimTime AnalyticalFabric::charge(NodeId src, NodeId dst, const Message& message) {
  const Topology& topology = *context_.topology;
  if (const FlowPathCache::Path* path = paths_.find_sized(src, dst, message.flow, message.bytes)) {
    for (std::uint32_t hop = 0; hop < path->hops; ++hop)
      context_.counters.record(path->ports[hop], message.bytes, path->serialize[hop], 0);
    return path->latency + FlowPathCache::max_serialize(*path);
  }
  // A path longer than the table keeps: walked.
  pdes::SimTime latency = 0;
  double bottleneck = std::numeric_limits<double>::infinity();
  walk_route(topology, src, dst, topology.router->start(src, dst, message.flow, 0),
             [&](std::uint32_t id, const Port& port) {
               latency += port.latency;
               bottleneck = std::min(bottleneck, port.bandwidth);
               context_.counters.record(id, message.bytes, serialization_time(message.bytes, port.bandwidth), 0);
             });
  return latency + serialization_time(message.bytes, bottleneck);
}

void AnalyticalFabric::on_event(NetworkNodeLp& node, const pdes::Event& event) {
  if (event.kind != kMessageArrival)
    throw std::logic_error(fmt::format("analytical network: node {} got event kind {}", node.node(), event.kind));
  const auto arrival = event.as<MessageArrival>();
  node.accept_message(arrival.message, arrival.bytes);
}

}  // namespace rackscale::models::network
