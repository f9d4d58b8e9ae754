#pragma once
// Assembles a Topology in two phases: first every node, rack by rack (which fixes node ids and each
// node's port range), then every cable, each placed at port indices the caller computes. Builders
// thereby control the port order that their routers rely on, and each node's ports are contiguous.
#include <cstdint>
#include <memory>
#include <string>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

class TopologyBuilder {
 public:
  // Starts a new rack; the nodes added next belong to it.
  void begin_rack(RackKind kind);
  // Devices may come in any order (the torus numbers them by rack block); each exactly once.
  NodeId add_device(std::uint32_t device, std::uint32_t port_count);
  NodeId add_switch(SwitchRole role, std::uint32_t port_count);
  [[nodiscard]] NodeId node_count() const noexcept { return static_cast<NodeId>(topology_.nodes.size()); }
  void reserve(std::size_t nodes, std::size_t racks, std::size_t devices);

  struct End {
    NodeId node;
    std::uint32_t port;
  };
  // One cable: a -> b at `latency_ab`, b -> a at `latency_ba`, the same bandwidth both ways.
  void connect(End a, End b, LinkClass link_class, double bandwidth, pdes::SimTime latency_ab,
               pdes::SimTime latency_ba);

  // Checks that every declared port got a cable and hands the result over.
  [[nodiscard]] Topology finish(std::unique_ptr<Router> router, std::string description);

 private:
  NodeId add_node(Node node, std::uint32_t port_count);
  void allocate_ports();
  Port& slot(End end);

  Topology topology_;
  std::uint64_t declared_ports_ = 0;
  bool ports_allocated_ = false;
};

}  // namespace rackscale::models::network
