#pragma once
// The counts, node numbering and port order of a (rail-optimized) fat tree sized to its endpoints,
// shared by its builder and router (docs/network.md, "Fat tree").
//
// Tiers: 1 is a single switch; 2 a leaf-spine tree (one pod); 3 leaves and spines in pods, under cores.
// A leaf has `leaf_up` uplinks; uplink i goes to spine i mod S of its pod (S = spines_per_pod), so a
// leaf and spine j share links_to_spine(j) parallel cables when S < leaf_up. A spine has `spine_up`
// uplinks; uplink c of spine j is the pod's uplink q = j * spine_up + c, which goes to core q mod C (C =
// cores), so a core and a pod share links_to_pod(core) cables.
//
// Ports: leaf: leaf_up uplinks, then its NICs (slot s at port leaf_up + s). Spine j: spine_up uplinks,
// then links_to_spine(j) ports per leaf of its pod, leaf by leaf (the t-th cable of local leaf l at
// spine_up + l * links_to_spine(j) + t). Core: links_to_pod(core) ports per pod, pod by pod (the t-th
// cable of pod p, which carries the pod's uplink core + t * C, at p * links_to_pod(core) + t). Switch
// nodes follow the compute nodes: each pod's leaves then its spines, pod after pod, then the cores.
#include <algorithm>
#include <array>
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct FatTreeShape {
  std::uint32_t tiers = 2;
  std::array<std::uint32_t, 3> radix{};  // leaf, spine and core switches
  double leaf_oversubscription = 1;
  double spine_oversubscription = 1;
  std::uint32_t leaf_down = 0;       // NIC ports of a full leaf (rail trees: nodes of a rail group)
  std::uint32_t leaf_up = 0;         // uplinks of every leaf; 0 in one tier
  std::uint32_t spines_per_pod = 0;  // S; 0 in one tier
  std::uint32_t spine_up = 0;        // uplinks of every spine; 0 below three tiers
  std::uint32_t cores = 0;           // C; 0 below three tiers
  std::uint32_t endpoints = 0;       // NICs = devices (NIC i of a node belongs to its device i)
  // Rail trees: NIC i of node n sits on leaf (n / nodes_per_group) * rails + i, at slot n % nodes_per_group.
  bool rail = false;
  std::uint32_t rails = 0;           // NICs per node
  std::uint32_t nodes = 0;
  std::uint32_t nodes_per_group = 0;
  std::uint32_t leaves = 0;
  std::uint32_t leaves_per_pod = 0;
  std::uint32_t pods = 1;
  std::uint32_t pod_group_endpoints = 0;  // derived pods hold whole job groups of this many NICs; 0: not aligned
  NodeId first_node = 0;             // the first leaf; compute nodes come before

  [[nodiscard]] std::uint32_t leaf_of(std::uint32_t endpoint) const noexcept {
    if (!rail) return endpoint / leaf_down;
    return (endpoint / rails / nodes_per_group) * rails + endpoint % rails;
  }
  [[nodiscard]] std::uint32_t slot_of(std::uint32_t endpoint) const noexcept {
    return rail ? (endpoint / rails) % nodes_per_group : endpoint % leaf_down;
  }
  [[nodiscard]] std::uint32_t pod_of_leaf(std::uint32_t leaf) const noexcept { return leaf / leaves_per_pod; }
  [[nodiscard]] std::uint32_t nic_ports(std::uint32_t leaf) const noexcept {
    if (!rail) return std::min(leaf_down, endpoints - leaf * leaf_down);
    return std::min(nodes_per_group, nodes - (leaf / rails) * nodes_per_group);
  }
  [[nodiscard]] std::uint32_t leaves_in_pod(std::uint32_t pod) const noexcept {
    return std::min(leaves_per_pod, leaves - pod * leaves_per_pod);
  }
  // Parallel cables between a leaf and spine j of its pod.
  [[nodiscard]] std::uint32_t links_to_spine(std::uint32_t spine) const noexcept {
    return (leaf_up - spine + spines_per_pod - 1) / spines_per_pod;
  }
  // Parallel cables between a core and each pod.
  [[nodiscard]] std::uint32_t links_to_pod(std::uint32_t core) const noexcept {
    return (spines_per_pod * spine_up - core + cores - 1) / cores;
  }
  [[nodiscard]] std::uint32_t spine_ports(std::uint32_t pod, std::uint32_t spine) const noexcept {
    return spine_up + leaves_in_pod(pod) * links_to_spine(spine);
  }
  [[nodiscard]] std::uint32_t core_ports(std::uint32_t core) const noexcept { return pods * links_to_pod(core); }
  [[nodiscard]] std::uint32_t spines() const noexcept { return pods * spines_per_pod; }
  [[nodiscard]] std::uint32_t switches() const noexcept { return leaves + spines() + cores; }
  [[nodiscard]] std::uint32_t pod_stride() const noexcept { return leaves_per_pod + spines_per_pod; }
  [[nodiscard]] NodeId pod_first_node(std::uint32_t pod) const noexcept { return first_node + pod * pod_stride(); }
  [[nodiscard]] NodeId leaf_node(std::uint32_t leaf) const noexcept {
    return pod_first_node(leaf / leaves_per_pod) + leaf % leaves_per_pod;
  }
  [[nodiscard]] NodeId spine_node(std::uint32_t pod, std::uint32_t index) const noexcept {
    return pod_first_node(pod) + leaves_in_pod(pod) + index;
  }
  [[nodiscard]] NodeId core_first_node() const noexcept { return first_node + leaves + spines(); }
  [[nodiscard]] NodeId core_node(std::uint32_t core) const noexcept { return core_first_node() + core; }
};

// Validates cluster.scale_out (topology fat_tree or rail_fat_tree) and computes the shape; the tree's
// switches are numbered from `first_node`.
[[nodiscard]] FatTreeShape plan_fat_tree(const ClusterSpec& cluster, NodeId first_node);

}  // namespace rackscale::models::network
