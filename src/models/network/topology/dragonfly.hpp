#pragma once
// Dragonfly scale-out: groups of routers with all-to-all local links and global links between groups.
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

[[nodiscard]] Topology build_dragonfly(const ClusterSpec& cluster, RoutingMode routing);

}  // namespace rackscale::models::network
