#pragma once
// The checks of a cluster's sizes that every topology shares (build_topology.cpp), also made before
// counting one (topology_size.cpp).
#include "models/network/cluster_spec.hpp"

namespace rackscale::models::network {

// Throws std::invalid_argument naming the key (cluster.nodes, cluster.devices_per_node, ...) at fault.
void check_cluster(const ClusterSpec& cluster);

}  // namespace rackscale::models::network
