// count_topology (build_topology.hpp): the node, port and rack counts of each builder, from the same
// shapes the builders and routers use, so that a new builder's counts are one function away.
#include "models/network/build_topology.hpp"
#include "models/network/topology/check_cluster.hpp"
#include "models/network/topology/dragonfly_shape.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/network/topology/scale_up.hpp"
#include "models/network/topology/torus_shape.hpp"

namespace rackscale::models::network {
namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The compute racks, their devices with `device_ports` ports each, and their scale-up switches and cables.
TopologySize count_compute(const ClusterSpec& cluster, const ComputeLayout& layout, std::uint32_t device_ports) {
  TopologySize size;
  size.devices = layout.devices;
  size.switches = layout.domain_switches ? layout.domain_count() : 0;
  size.ports = std::uint64_t{layout.devices} * device_ports;
  // An NVSwitch has a port per device of its domain (the device's one scale-up port is counted above).
  if (cluster.scale_up.kind == ScaleUpKind::nvswitch) size.ports += layout.devices;
  size.compute_racks = layout.rack_count();
  size.racks = size.compute_racks;
  return size;
}

TopologySize count_fat_tree(const ClusterSpec& cluster) {
  const ComputeLayout layout = plan_compute(cluster);
  const FatTreeShape shape = plan_fat_tree(cluster, layout.node_count());
  TopologySize size = count_compute(cluster, layout, scale_up_ports(cluster.scale_up) + 1);
  size.switches += shape.switches();
  // Leaves: their NIC ports and uplinks; spines: the leaves' uplinks and their own; cores: the spines'.
  size.ports += std::uint64_t{shape.endpoints} + 2 * std::uint64_t{shape.leaves} * shape.leaf_up +
                2 * std::uint64_t{shape.spines()} * shape.spine_up;
  const std::uint32_t per_rack = cluster.scale_out.switches_per_rack;
  for (std::uint32_t pod = 0; pod < shape.pods; ++pod)
    size.racks += ceil_div(shape.leaves_in_pod(pod) + shape.spines_per_pod, per_rack);
  size.racks += ceil_div(shape.cores, per_rack);
  return size;
}

TopologySize count_dragonfly(const ClusterSpec& cluster) {
  const ComputeLayout layout = plan_compute(cluster);
  const DragonflyShape shape = plan_dragonfly(cluster, layout.node_count());
  TopologySize size = count_compute(cluster, layout, scale_up_ports(cluster.scale_up) + 1);
  size.switches += shape.routers();
  // Routers: a port per NIC, a - 1 local ports each, and each group's used global slots.
  size.ports += std::uint64_t{shape.endpoints()} + std::uint64_t{shape.routers()} * (shape.routers_per_group - 1) +
                std::uint64_t{shape.groups} * shape.used_global_slots();
  size.racks += std::uint64_t{shape.groups} * ceil_div(shape.routers_per_group, cluster.scale_out.switches_per_rack);
  return size;
}

TopologySize count_torus(const ClusterSpec& cluster) {
  const TorusShape shape = plan_torus(cluster);
  TopologySize size;
  size.devices = shape.devices();
  size.ports = std::uint64_t{shape.devices()} * shape.port_count();
  size.compute_racks = shape.rack_count();
  size.racks = size.compute_racks;
  return size;
}

}  // namespace

TopologySize count_topology(const ClusterSpec& cluster) {
  check_cluster(cluster);
  switch (cluster.scale_out.kind) {
    case ScaleOutKind::none: {
      const ComputeLayout layout = plan_compute(cluster);
      return count_compute(cluster, layout, scale_up_ports(cluster.scale_up));
    }
    case ScaleOutKind::fat_tree:
    case ScaleOutKind::rail_fat_tree: return count_fat_tree(cluster);
    case ScaleOutKind::dragonfly: return count_dragonfly(cluster);
    case ScaleOutKind::torus3d: return count_torus(cluster);
  }
  return {};
}

}  // namespace rackscale::models::network
