#pragma once
// Fat trees (folded Clos) and rail-optimized fat trees of 2 or 3 tiers over the compute racks.
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

[[nodiscard]] Topology build_fat_tree(const ClusterSpec& cluster, RoutingMode routing);

}  // namespace rackscale::models::network
