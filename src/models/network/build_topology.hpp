#pragma once
// Turns a ClusterSpec into a Topology with its Router.
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// Deterministic: the same spec gives the same node ids, ports and racks on every rank. Throws
// std::invalid_argument with a message that starts with the config key path at fault, for example
// "cluster.scale_out.fat_tree.tiers: a 2-tier fat tree of radix 64 holds at most 2048 NICs; got 4096
// (use tiers: 3 or a larger radix)", when the spec cannot be built.
[[nodiscard]] Topology build_topology(const ClusterSpec& cluster, RoutingMode routing);

}  // namespace rackscale::models::network
