#pragma once
// The counts and node numbering of a (rail-optimized) fat tree, shared by its builder and router.
//
// Leaves have `leaf_up` ports up (port j to spine j of their pod) and then their NIC ports (slot s at
// port leaf_up + s). A 2-tier tree is one pod whose spines link to every leaf; a 3-tier tree has pods
// of `leaves_per_pod` leaves and `leaf_up` spines, and spine j of every pod links to the `spine_up`
// cores of plane j. Spines have `spine_up` ports up (port c to core (j, c); none in 2 tiers), then
// one port per leaf of their pod; core ports are pods. Switch nodes follow the compute nodes: each
// pod's leaves then its spines, pod after pod, then the cores plane by plane.
#include <algorithm>
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct FatTreeShape {
  std::uint32_t tiers = 2;
  std::uint32_t radix = 0;
  double leaf_oversubscription = 1;
  double spine_oversubscription = 1;
  std::uint32_t leaf_down = 0;  // d1: leaf ports meant for NICs
  std::uint32_t leaf_up = 0;    // u1: spines per pod
  std::uint32_t spine_down = 0; // d2: 3-tier only
  std::uint32_t spine_up = 0;   // u2: cores per plane; 0 in 2 tiers
  std::uint32_t endpoints = 0;  // NICs = devices (NIC i of a node belongs to its device i)
  // Rail trees: NIC i of node n sits on leaf (n / nodes_per_group) * rails + i, at slot n % nodes_per_group.
  bool rail = false;
  std::uint32_t rails = 0;      // NICs per node
  std::uint32_t nodes = 0;
  std::uint32_t nodes_per_group = 0;
  std::uint32_t leaves = 0;
  std::uint32_t leaves_per_pod = 0;
  std::uint32_t pods = 1;
  NodeId first_node = 0;        // the first leaf; compute nodes come before

  [[nodiscard]] std::uint32_t leaf_of(std::uint32_t endpoint) const noexcept {
    if (!rail) return endpoint / leaf_down;
    return (endpoint / rails / nodes_per_group) * rails + endpoint % rails;
  }
  [[nodiscard]] std::uint32_t slot_of(std::uint32_t endpoint) const noexcept {
    return rail ? (endpoint / rails) % nodes_per_group : endpoint % leaf_down;
  }
  [[nodiscard]] std::uint32_t nic_ports(std::uint32_t leaf) const noexcept {
    if (!rail) return std::min(leaf_down, endpoints - leaf * leaf_down);
    return std::min(nodes_per_group, nodes - (leaf / rails) * nodes_per_group);
  }
  [[nodiscard]] std::uint32_t leaves_in_pod(std::uint32_t pod) const noexcept {
    return std::min(leaves_per_pod, leaves - pod * leaves_per_pod);
  }
  [[nodiscard]] std::uint32_t spines() const noexcept { return pods * leaf_up; }
  [[nodiscard]] std::uint32_t cores() const noexcept { return leaf_up * spine_up; }
  [[nodiscard]] std::uint32_t pod_stride() const noexcept { return leaves_per_pod + leaf_up; }
  [[nodiscard]] NodeId pod_first_node(std::uint32_t pod) const noexcept { return first_node + pod * pod_stride(); }
  [[nodiscard]] NodeId leaf_node(std::uint32_t leaf) const noexcept {
    return pod_first_node(leaf / leaves_per_pod) + leaf % leaves_per_pod;
  }
  [[nodiscard]] NodeId spine_node(std::uint32_t pod, std::uint32_t index) const noexcept {
    return pod_first_node(pod) + leaves_in_pod(pod) + index;
  }
  [[nodiscard]] NodeId core_first_node() const noexcept { return first_node + leaves + spines(); }
  [[nodiscard]] NodeId core_node(std::uint32_t plane, std::uint32_t index) const noexcept {
    return core_first_node() + plane * spine_up + index;
  }
};

// Validates cluster.scale_out (topology fat_tree or rail_fat_tree) and computes the shape; the tree's
// switches are numbered from `first_node`.
[[nodiscard]] FatTreeShape plan_fat_tree(const ClusterSpec& cluster, NodeId first_node);

}  // namespace rackscale::models::network
