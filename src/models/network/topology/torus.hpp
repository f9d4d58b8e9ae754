#pragma once
// 3D torus of directly linked devices (TPU-style ICI), no switches.
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

[[nodiscard]] Topology build_torus(const ClusterSpec& cluster, RoutingMode routing);

}  // namespace rackscale::models::network
