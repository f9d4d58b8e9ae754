#include "models/network/path.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/output_port.hpp"

namespace rackscale::models::network {

void throw_routing_loop(std::string_view router, NodeId src, NodeId dst) {
  throw std::logic_error(fmt::format("routing loop from node {} to node {} (router {})", src, dst, router));
}

PathFigures path_figures(const Topology& topology, NodeId src, NodeId dst, std::uint64_t flow) {
  PathFigures f;
  if (src == dst) return f;
  f.bottleneck = std::numeric_limits<double>::infinity();
  f.hops = walk_route(topology, src, dst, topology.router->start(src, dst, flow, 0),
                      [&](std::uint32_t /*id*/, const Port& port) {
                        f.latency += port.latency;
                        f.bottleneck = std::min(f.bottleneck, port.bandwidth);
                      });
  return f;
}

void charge_route(const Topology& topology, PortCounters& counters, NodeId src, NodeId dst, std::uint64_t flow,
                  std::span<const MessageBatch> batches) {
  if (src == dst || batches.empty()) return;
  std::uint64_t bytes = 0, messages = 0;
  for (const MessageBatch& b : batches) {
    bytes += b.bytes * b.count;
    messages += b.count;
  }
  // Serialization time of all the batches at a port's bandwidth; the ports of a route mostly share one.
  double bandwidth = 0;
  pdes::SimTime busy = 0;
  walk_route(topology, src, dst, topology.router->start(src, dst, flow, 0), [&](std::uint32_t id, const Port& port) {
    if (port.bandwidth != bandwidth) {
      bandwidth = port.bandwidth;
      busy = 0;
      for (const MessageBatch& b : batches) busy += serialization_time(b.bytes, bandwidth) * b.count;
    }
    counters.charge(id, bytes, busy, messages);
  });
}

void charge_scale_up_cable(const Topology& topology, PortCounters& counters, NodeId device, bool into_switch,
                           std::span<const MessageBatch> batches) {
  const Port& up = topology.port(device, 0);
  const NodeId at = into_switch ? device : up.peer;
  const PortIndex index = into_switch ? PortIndex{0} : up.peer_port;
  const Port& port = topology.port(at, index);
  std::uint64_t bytes = 0, messages = 0;
  pdes::SimTime busy = 0;
  for (const MessageBatch& b : batches) {
    bytes += b.bytes * b.count;
    messages += b.count;
    busy += serialization_time(b.bytes, port.bandwidth) * b.count;
  }
  counters.charge(topology.port_id(at, index), bytes, busy, messages);
}

}  // namespace rackscale::models::network
