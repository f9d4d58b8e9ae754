#pragma once
// Compute racks and their scale-up fabric (NVSwitch or direct mesh), shared by every topology
// except the torus; and the topology of a cluster that is a single scale-up domain.
#include <cstdint>
#include <optional>
#include <string>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/network/topology/compute_layout.hpp"
#include "models/network/topology/topology_builder.hpp"

namespace rackscale::models::network {

// Validates cluster.nodes_per_rack and cluster.scale_up and lays the compute racks out.
[[nodiscard]] ComputeLayout plan_compute(const ClusterSpec& cluster);

// Scale-up ports of each device; they come first among its ports (see docs/network.md).
[[nodiscard]] std::uint32_t scale_up_ports(const ScaleUpSpec& scale_up) noexcept;

// Adds the compute racks' nodes; each device gets `device_ports` ports.
void add_compute_racks(TopologyBuilder& builder, const ComputeLayout& layout, std::uint32_t device_ports);
void connect_scale_up(TopologyBuilder& builder, const ComputeLayout& layout, const ScaleUpSpec& scale_up);

// "98304 devices (12288 nodes x 8) in 3072 racks of 4 nodes, 8 NICs per node, NVSwitch domains of 8"
[[nodiscard]] std::string describe_compute(const ClusterSpec& cluster, const ComputeLayout& layout, bool with_nics);

// The hops of a route inside compute racks: a device reaches a peer of its own scale-up domain through
// the scale-up fabric, and everything else through its NIC, the port after its scale-up ports.
class ComputeHop {
 public:
  ComputeHop(const ComputeLayout& layout, ScaleUpKind kind) noexcept;

  // The port to take at compute node `at` towards device `dst_device`; nullopt when `at` is not a
  // compute node (it is a scale-out switch).
  [[nodiscard]] std::optional<PortIndex> port(NodeId at, std::uint32_t dst_device) const noexcept;
  [[nodiscard]] const ComputeLayout& layout() const noexcept { return layout_; }

 private:
  ComputeLayout layout_;
  ScaleUpKind kind_;
  PortIndex nic_port_;
};

// scale_out.topology none: every device in one scale-up domain.
[[nodiscard]] Topology build_single_domain(const ClusterSpec& cluster, RoutingMode routing);

}  // namespace rackscale::models::network
