#pragma once
// Turns a ClusterSpec into a Topology with its Router.
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// Deterministic: the same spec gives the same node ids, ports and racks on every rank. Throws
// std::invalid_argument with a message that starts with the config key path at fault, for example
// "cluster.scale_out.fat_tree.tiers: a 2-tier fat tree of radix 64 holds at most 2048 NICs; got 4096
// (use tiers: 3 or a larger radix)", when the spec cannot be built.
[[nodiscard]] Topology build_topology(const ClusterSpec& cluster, RoutingMode routing);

// What build_topology would build, counted without building it (a 2^30-device cluster's topology alone
// takes about 200 GB): for the memory estimate of a run (src/app/memory_estimate.hpp). Validates the
// cluster's sizes and shapes as build_topology does (same exceptions), not the routing mode or the
// switches' figures. tests/network/test_topology_size.cpp checks the counts against built topologies.
struct TopologySize {
  std::uint64_t devices = 0;
  std::uint64_t switches = 0;       // scale-up and scale-out switches
  std::uint64_t ports = 0;          // directed: two per cable
  std::uint64_t racks = 0;          // compute and network racks
  std::uint64_t compute_racks = 0;
  [[nodiscard]] std::uint64_t nodes() const noexcept { return devices + switches; }
};
[[nodiscard]] TopologySize count_topology(const ClusterSpec& cluster);

}  // namespace rackscale::models::network
