#include "models/network/build_topology.hpp"

#include "models/network/topology/check_cluster.hpp"
#include "models/network/topology/dragonfly.hpp"
#include "models/network/topology/fat_tree.hpp"
#include "models/network/topology/scale_up.hpp"
#include "models/network/topology/spec_error.hpp"
#include "models/network/topology/torus.hpp"

namespace rackscale::models::network {
namespace {
// Far beyond any real cluster, and low enough that node and port counts stay within 32 bits.
constexpr std::uint64_t kMaxDevices = std::uint64_t{1} << 30;
}  // namespace

void check_cluster(const ClusterSpec& cluster) {
  if (cluster.nodes == 0) spec_error("cluster.nodes", "expected at least 1; got 0");
  if (cluster.devices_per_node == 0) spec_error("cluster.devices_per_node", "expected at least 1; got 0");
  if (cluster.devices() > kMaxDevices) {
    spec_error("cluster.nodes", "at most {} devices are supported; got {} ({} nodes x {})", kMaxDevices,
               cluster.devices(), cluster.nodes, cluster.devices_per_node);
  }
  if (cluster.nics_per_node != 0 && cluster.nics_per_node != cluster.devices_per_node) {
    spec_error("cluster.nics_per_node", "NIC i of a node belongs to its device i, so expected 0 or {} (devices_per_node); got {}",
               cluster.devices_per_node, cluster.nics_per_node);
  }
}

namespace {
Topology build_fabric(const ClusterSpec& cluster, RoutingMode routing) {
  switch (cluster.scale_out.kind) {
    case ScaleOutKind::none: return build_single_domain(cluster, routing);
    case ScaleOutKind::fat_tree:
    case ScaleOutKind::rail_fat_tree: return build_fat_tree(cluster, routing);
    case ScaleOutKind::dragonfly: return build_dragonfly(cluster, routing);
    case ScaleOutKind::torus3d: return build_torus(cluster, routing);
  }
  spec_error("cluster.scale_out.topology", "unknown topology");
}
}  // namespace

Topology build_topology(const ClusterSpec& cluster, RoutingMode routing) {
  check_cluster(cluster);
  Topology topology = build_fabric(cluster, routing);
  if (cluster.scale_up.kind == ScaleUpKind::nvswitch)
    topology.nvls_reduce_bandwidth = cluster.scale_up.switch_spec.nvls_reduce_bandwidth;
  return topology;
}

}  // namespace rackscale::models::network
