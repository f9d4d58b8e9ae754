#include "models/network/topology/topology_builder.hpp"

#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {

void TopologyBuilder::reserve(std::size_t nodes, std::size_t racks, std::size_t devices) {
  topology_.nodes.reserve(nodes);
  topology_.devices.reserve(devices);
  topology_.racks.reserve(racks);
}

void TopologyBuilder::begin_rack(RackKind kind) {
  if (ports_allocated_) throw std::logic_error("TopologyBuilder: rack added after the first cable");
  topology_.racks.push_back(Rack{kind, node_count(), 0});
}

NodeId TopologyBuilder::add_device(std::uint32_t device, std::uint32_t port_count) {
  if (device >= topology_.devices.size()) topology_.devices.resize(std::size_t{device} + 1, kNoNode);
  if (topology_.devices[device] != kNoNode) {
    throw std::logic_error(fmt::format("TopologyBuilder: device {} added twice", device));
  }
  const NodeId id = add_node(Node{NodeKind::device, SwitchRole::none, 0, device, 0, 0}, port_count);
  topology_.devices[device] = id;
  return id;
}

NodeId TopologyBuilder::add_switch(SwitchRole role, std::uint32_t port_count) {
  return add_node(Node{NodeKind::switch_node, role, 0, kNoDevice, 0, 0}, port_count);
}

NodeId TopologyBuilder::add_node(Node node, std::uint32_t port_count) {
  if (ports_allocated_) throw std::logic_error("TopologyBuilder: node added after the first cable");
  if (topology_.racks.empty()) throw std::logic_error("TopologyBuilder: node added before any rack");
  if (port_count > std::numeric_limits<PortIndex>::max()) {
    throw std::logic_error(fmt::format("TopologyBuilder: {} ports on one node (limit {})", port_count,
                                       std::numeric_limits<PortIndex>::max()));
  }
  // Specs are validated before building; this guard only catches totals no validation foresaw.
  if (node_count() >= kNoNode - 1 ||
      declared_ports_ + port_count > std::numeric_limits<std::uint32_t>::max()) {
    spec_error("cluster.nodes", "the cluster needs more than 2^32 nodes or ports; reduce its size");
  }
  node.rack = static_cast<std::uint32_t>(topology_.racks.size() - 1);
  node.first_port = static_cast<std::uint32_t>(declared_ports_);
  node.port_count = static_cast<PortIndex>(port_count);
  declared_ports_ += port_count;
  const NodeId id = node_count();
  topology_.nodes.push_back(node);
  ++topology_.racks.back().node_count;
  return id;
}

void TopologyBuilder::allocate_ports() {
  topology_.ports.assign(static_cast<std::size_t>(declared_ports_), Port{});
  ports_allocated_ = true;
}

Port& TopologyBuilder::slot(End end) {
  if (end.node >= topology_.nodes.size() || end.port >= topology_.nodes[end.node].port_count) {
    throw std::logic_error(fmt::format("TopologyBuilder: no port {} on node {}", end.port, end.node));
  }
  Port& port = topology_.ports[topology_.nodes[end.node].first_port + end.port];
  if (port.peer != kNoNode) {
    throw std::logic_error(fmt::format("TopologyBuilder: port {} of node {} cabled twice", end.port, end.node));
  }
  return port;
}

void TopologyBuilder::connect(End a, End b, LinkClass link_class, double bandwidth,
                              pdes::SimTime latency_ab, pdes::SimTime latency_ba) {
  if (!ports_allocated_) allocate_ports();
  Port& ab = slot(a);
  Port& ba = slot(b);
  ab = Port{b.node, static_cast<PortIndex>(b.port), link_class, bandwidth, latency_ab};
  ba = Port{a.node, static_cast<PortIndex>(a.port), link_class, bandwidth, latency_ba};
}

Topology TopologyBuilder::finish(std::unique_ptr<Router> router, std::string description) {
  if (!ports_allocated_) allocate_ports();
  for (NodeId n = 0; n < topology_.nodes.size(); ++n) {
    const Node& node = topology_.nodes[n];
    for (std::uint32_t i = 0; i < node.port_count; ++i) {
      if (topology_.ports[node.first_port + i].peer == kNoNode) {
        throw std::logic_error(fmt::format("TopologyBuilder: port {} of node {} has no cable", i, n));
      }
    }
  }
  for (std::size_t d = 0; d < topology_.devices.size(); ++d) {
    if (topology_.devices[d] == kNoNode) throw std::logic_error(fmt::format("TopologyBuilder: device {} missing", d));
  }
  topology_.router = std::move(router);
  topology_.description = std::move(description);
  Topology done = std::move(topology_);
  topology_ = Topology{};
  declared_ports_ = 0;
  ports_allocated_ = false;
  return done;
}

}  // namespace rackscale::models::network
