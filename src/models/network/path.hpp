#pragma once
// Walking a route: the latency and bottleneck of the path a router gives a flow between two devices.
#include <cstdint>
#include <span>
#include <string_view>

#include "models/network/port_counters.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

// The std::logic_error of a router that has not reached `dst` after more hops than there are nodes.
[[noreturn]] void throw_routing_loop(std::string_view router, NodeId src, NodeId dst);

// The one hop loop of every route walk: calls visit(port_id, port) for each port of the route the
// topology's router gives from node `src` to node `dst` under `tag` (from router->start), in order, and
// returns the number of hops. Throws std::logic_error (throw_routing_loop) on a routing loop. A template,
// so that the walks on hot paths (the analytical fabric, the flow path cache) stay one inlined loop.
template <typename Visit>
std::uint32_t walk_route(const Topology& topology, NodeId src, NodeId dst, RouteTag tag, Visit&& visit) {
  std::uint32_t hops = 0;
  for (NodeId at = src; at != dst; ++hops) {
    if (hops > topology.nodes.size()) throw_routing_loop(topology.router->name(), src, dst);
    const std::uint32_t id = topology.port_id(at, topology.router->next_port(at, dst, tag));
    const Port& port = topology.ports[id];
    visit(id, port);
    at = port.peer;
  }
  return hops;
}

struct PathFigures {
  pdes::SimTime latency = 0;  // sum of the ports' latencies
  double bottleneck = 0;      // smallest port bandwidth, bytes/s (0 for an empty path)
  std::uint32_t hops = 0;
};

// The path of chunk 0 of `flow` from device node `src` to device node `dst`. Throws std::logic_error on
// a routing loop.
[[nodiscard]] PathFigures path_figures(const Topology& topology, NodeId src, NodeId dst, std::uint64_t flow);

// `count` messages of `bytes` each.
struct MessageBatch {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};

// Charges the messages of `batches`, of `flow` from device node `src` to device node `dst`, to every
// port of the route, as the analytical fabric records each message it carries (bytes and serialization
// time per message, no queueing), without carrying them. Throws std::logic_error on a routing loop.
void charge_route(const Topology& topology, PortCounters& counters, NodeId src, NodeId dst, std::uint64_t flow,
                  std::span<const MessageBatch> batches);

// NVLink SHARP traffic (switch_multimem.hpp) crosses one cable: charges the messages of `batches` to the
// port of device node `device` into its scale-up switch (`into_switch`), or to the switch's port towards
// the device, as the switch and the device record the messages they carry.
void charge_scale_up_cable(const Topology& topology, PortCounters& counters, NodeId device, bool into_switch,
                           std::span<const MessageBatch> batches);

}  // namespace rackscale::models::network
