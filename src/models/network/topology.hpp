#pragma once
// The simulated cluster as a graph: nodes (devices and switches), directed ports (each cable is two
// ports, one per direction), and racks. Built once, identically on every rank, from a ClusterSpec;
// immutable afterwards. Node ids are also the LP ids of the simulation: nodes are numbered rack by
// rack, so a rack is a contiguous range of LPs.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/network/router.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

using NodeId = std::uint32_t;
using PortIndex = std::uint16_t;  // a port's index among its node's ports
inline constexpr NodeId kNoNode = 0xFFFF'FFFFu;
inline constexpr std::uint32_t kNoDevice = 0xFFFF'FFFFu;

enum class NodeKind : std::uint8_t { device, switch_node };

enum class SwitchRole : std::uint8_t {
  none,      // devices
  scale_up,  // NVSwitch of a scale-up domain
  leaf,      // fat-tree tier 1 (rail leaf in rail-optimized trees)
  spine,     // fat-tree tier 2
  core,      // fat-tree tier 3
  router,    // dragonfly router
};

// What a cable is, for statistics and for choosing its figures.
enum class LinkClass : std::uint8_t {
  scale_up,    // device <-> NVSwitch, or device <-> device in a mesh
  nic,         // device NIC <-> leaf switch or dragonfly router
  leaf_spine,  // fat tree tier 1 <-> tier 2
  spine_core,  // fat tree tier 2 <-> tier 3
  local,       // dragonfly router <-> router in the same group
  global,      // dragonfly router <-> router in another group
  torus,       // device <-> device in a torus
};

// One direction of a cable: from the node that owns the port to `peer`.
struct Port {
  NodeId peer = kNoNode;
  PortIndex peer_port = 0;       // the reverse direction's index at the peer
  LinkClass link_class = LinkClass::nic;
  double bandwidth = 0;          // bytes/s, this direction
  // From the last bit leaving this port to the chunk being ready to leave the peer: propagation plus
  // the peer's forwarding latency (a switch's port-to-port latency). A NIC's latency is split: half
  // on the device's outgoing port, half on the port towards the device.
  pdes::SimTime latency = 0;
};

struct Node {
  NodeKind kind = NodeKind::device;
  SwitchRole role = SwitchRole::none;
  std::uint32_t rack = 0;
  std::uint32_t device = kNoDevice;  // device index for devices
  std::uint32_t first_port = 0;      // into Topology::ports
  PortIndex port_count = 0;
};

enum class RackKind : std::uint8_t { compute, network };

struct Rack {
  RackKind kind = RackKind::compute;
  NodeId first_node = 0;  // nodes [first_node, first_node + node_count)
  std::uint32_t node_count = 0;
};

class Topology {
 public:
  std::vector<Node> nodes;
  std::vector<Port> ports;       // node n's ports are ports[nodes[n].first_port + i]
  std::vector<Rack> racks;
  std::vector<NodeId> devices;   // device index -> node id (device d is node devices[d])
  std::unique_ptr<Router> router;
  std::string description;       // one line, for summaries: "3-tier fat tree, radix 64, ..."
  // NVLink SHARP of the scale-up switches (cluster.scale_up.switch.nvls_reduce_bandwidth): operand bytes/s
  // a switch reduces per device port; 0 when they do no in-switch reduction (switch_multimem.hpp).
  double nvls_reduce_bandwidth = 0;

  [[nodiscard]] std::span<const Port> ports_of(NodeId node) const {
    const Node& n = nodes[node];
    return {ports.data() + n.first_port, n.port_count};
  }
  [[nodiscard]] const Port& port(NodeId node, PortIndex index) const { return ports[nodes[node].first_port + index]; }
  // A port's position in `ports`: a stable id for per-link statistics.
  [[nodiscard]] std::uint32_t port_id(NodeId node, PortIndex index) const { return nodes[node].first_port + index; }
  [[nodiscard]] std::size_t device_count() const { return devices.size(); }
  [[nodiscard]] std::size_t switch_count() const { return nodes.size() - devices.size(); }
  [[nodiscard]] std::size_t link_count() const { return ports.size() / 2; }
};

}  // namespace rackscale::models::network
