// Fat trees sized to their endpoints: the fewest tiers that fit, leaves = ceil(NICs / ports down),
// spines and cores = what the uplinks need, against closed forms written out here for 8 cluster sizes
// and 3 radices, against published designs, and with no switch that no route can cross.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The non-blocking tree of `radix`-port switches for E single-NIC endpoints, by hand:
//   E <= k: one switch.
//   d = k/2 ports down and up per leaf, L = ceil(E/d) leaves.
//   L <= k: two tiers; a spine has floor(k/L) ports per leaf, so S = ceil(d / floor(k/L)) spines.
//   else three: pods of d leaves under d spines (one cable per leaf), P = ceil(L/d) pods; a core has
//   floor(k/P) ports per pod, so C = ceil(d*d / floor(k/P)) cores; P > k does not fit.
struct Expected {
  std::uint32_t tiers = 0;
  std::uint64_t leaves = 0, spines = 0, cores = 0, pods = 0;
  std::uint64_t nic_links = 0, leaf_spine_links = 0, spine_core_links = 0;
};

std::optional<Expected> non_blocking(std::uint64_t endpoints, std::uint64_t k) {
  Expected e;
  e.nic_links = endpoints;
  if (endpoints <= k) {
    e.tiers = 1;
    e.leaves = 1;
    return e;
  }
  const std::uint64_t d = k / 2;
  e.leaves = ceil_div(endpoints, d);
  e.leaf_spine_links = e.leaves * d;
  if (e.leaves <= k) {
    e.tiers = 2;
    e.spines = ceil_div(d, k / e.leaves);
    return e;
  }
  e.tiers = 3;
  e.pods = ceil_div(e.leaves, d);
  if (e.pods > k) return std::nullopt;
  e.spines = e.pods * d;
  e.cores = ceil_div(d * d, k / e.pods);
  e.spine_core_links = e.pods * d * d;
  return e;
}

ClusterSpec endpoints_tree(std::uint32_t endpoints, std::uint32_t radix) {
  ClusterSpec c = fat_tree(endpoints, 1, radix, 0);
  c.nodes_per_rack = 32;
  c.scale_out.switches_per_rack = 16;
  return c;
}

TEST(FatTreeSizing, CountsMatchTheClosedFormsForEightSizesAndThreeRadices) {
  for (const std::uint32_t radix : {40u, 64u, 128u}) {
    for (const std::uint32_t endpoints : {64u, 128u, 1'024u, 2'048u, 4'096u, 16'384u, 32'768u, 98'304u}) {
      SCOPED_TRACE(std::to_string(endpoints) + " endpoints, radix " + std::to_string(radix));
      const auto expected = non_blocking(endpoints, radix);
      if (!expected) {
        // 3 tiers of k ports at 1:1 hold k * (k/2)^2 NICs: 16,000 for k = 40.
        expect_error(endpoints_tree(endpoints, radix), RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
                     "holds at most " + std::to_string(std::uint64_t{radix} * (radix / 2) * (radix / 2)) + " NICs");
        continue;
      }
      const Topology t = build_topology(endpoints_tree(endpoints, radix), RoutingMode::spray);
      expect_well_formed(t);
      EXPECT_EQ(switches_of(t, SwitchRole::leaf), expected->leaves);
      EXPECT_EQ(switches_of(t, SwitchRole::spine), expected->spines);
      EXPECT_EQ(switches_of(t, SwitchRole::core), expected->cores);
      EXPECT_EQ(links_of(t, LinkClass::nic), expected->nic_links);
      EXPECT_EQ(links_of(t, LinkClass::leaf_spine), expected->leaf_spine_links);
      EXPECT_EQ(links_of(t, LinkClass::spine_core), expected->spine_core_links);
      const std::string tiers = std::to_string(expected->tiers) + "-tier";
      if (expected->tiers == 1) {
        EXPECT_NE(t.description.find("a single " + std::to_string(radix) + "-port switch"), std::string::npos);
      } else {
        EXPECT_NE(t.description.find(tiers), std::string::npos) << t.description;
      }
      for (const Node& node : t.nodes) {
        if (node.kind == NodeKind::switch_node) {
          ASSERT_LE(node.port_count, radix);
        }
      }
      if (endpoints <= 16'384) expect_every_switch_carries_traffic(t);
    }
  }
}

TEST(FatTreeSizing, SomeSizesWorkedByHand) {
  // 64 NICs, radix 64: one switch with 64 ports.
  {
    const Topology t = build_topology(endpoints_tree(64, 64), RoutingMode::ecmp);
    EXPECT_EQ(t.switch_count(), 1u);
    EXPECT_EQ(t.link_count(), 64u);
    EXPECT_EQ(route(t, 0, 63).hops(), 2u);
  }
  // 1,024 NICs, radix 40: 20 down / 20 up, 52 leaves > 40: three tiers, pods of 20 leaves (20, 20, 12),
  // 20 spines each; a core has floor(40/3) = 13 ports per pod for a pod's 400 uplinks: 31 cores.
  {
    const Topology t = build_topology(endpoints_tree(1'024, 40), RoutingMode::ecmp);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), 52u);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), 60u);
    EXPECT_EQ(switches_of(t, SwitchRole::core), 31u);
  }
  // 4,096 NICs, radix 128: 64 leaves of 64 fit under 2 tiers; a spine has 2 ports per leaf: 32 spines.
  {
    const Topology t = build_topology(endpoints_tree(4'096, 128), RoutingMode::ecmp);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), 64u);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), 32u);
    for (const Node& node : t.nodes) {
      if (node.role == SwitchRole::spine) {
        EXPECT_EQ(node.port_count, 128u);
      }
    }
  }
  // 98,304 NICs, radix 64 at 1:1 / 3:1 (configs/clusters/h100-98304-fat-tree.yaml): every port used,
  // 3,072 leaves, 64 pods of 48 leaves under 32 spines, 512 cores.
  {
    ClusterSpec spec = endpoints_tree(98'304, 64);
    spec.scale_out.fat_tree.oversubscription = {1, 3};
    const Topology t = build_topology(spec, RoutingMode::ecmp);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), 3'072u);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), 2'048u);
    EXPECT_EQ(switches_of(t, SwitchRole::core), 512u);
  }
}

// Published capacities of two-tier trees (data/reference/network.csv): Quantum-2 QM9700 (64 ports),
// "two-tier fat tree to 2048 endpoints at full bisection"; Quantum-X800 Q3400 (144 ports), "to 10368
// endpoints". One more NIC needs a third tier.
TEST(FatTreeSizing, TwoTierCapacitiesOfPublishedSwitches) {
  for (const auto& [radix, most] : {std::pair{64u, 2'048u}, std::pair{144u, 10'368u}}) {
    const Topology full = build_topology(endpoints_tree(most, radix), RoutingMode::ecmp);
    EXPECT_EQ(switches_of(full, SwitchRole::leaf), radix);
    EXPECT_EQ(switches_of(full, SwitchRole::spine), radix / 2);
    EXPECT_EQ(switches_of(full, SwitchRole::core), 0u);
    const Topology more = build_topology(endpoints_tree(most + 1, radix), RoutingMode::ecmp);
    EXPECT_GT(switches_of(more, SwitchRole::core), 0u);
  }
}

// NVIDIA DGX SuperPOD reference architecture with DGX H100 (docs/network.md, "Published designs"):
// scalable units of 32 nodes (the first holds 31 beside the fabric manager), a rail-optimized compute
// fabric of 64-port Quantum-2 switches, 8 leaves per SU (one per rail) and 4, 8 and 16 spines for 1, 2
// and 4 SUs.
TEST(FatTreeSizing, DgxH100SuperPodComputeFabric) {
  for (const auto& [nodes, leaves, spines] :
       {std::tuple{31u, 8u, 4u}, std::tuple{63u, 16u, 8u}, std::tuple{127u, 32u, 16u}}) {
    SCOPED_TRACE(nodes);
    ClusterSpec spec = fat_tree(nodes, 8, 64, 0);
    spec.nodes_per_rack = 4;
    spec.scale_out.kind = ScaleOutKind::rail_fat_tree;
    spec.scale_out.fat_tree.nodes_per_rail_group = 32;
    const Topology t = build_topology(spec, RoutingMode::ecmp);
    expect_well_formed(t);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), leaves);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), spines);
    EXPECT_EQ(switches_of(t, SwitchRole::core), 0u);
    // A leaf's 32 uplinks spread evenly: 32 / spines parallel cables to each spine.
    EXPECT_EQ(links_of(t, LinkClass::leaf_spine), leaves * 32u);
    expect_every_switch_carries_traffic(t);
  }
}

// The Llama 3 cluster (Dubey et al. 2024, "The Llama 3 Herd of Models", section 3.3.1; data/reference/
// network.csv): 16 GPUs per ToR, 192 ToRs = a 3,072-GPU pod at full bisection, 8 pods = 24K GPUs with
// 1:7 oversubscription above the pods. The ToR radix is taken as 64 and the pod and aggregation
// switches as 576-port chassis (the paper gives neither).
TEST(FatTreeSizing, Llama3PodsAsSet) {
  ClusterSpec spec = fat_tree(3'072, 8, 64, 0, 1, 7);
  spec.nodes_per_rack = 2;
  spec.scale_out.switches_per_rack = 16;
  spec.scale_out.fat_tree.endpoints_per_leaf = 16;
  spec.scale_out.fat_tree.pod_endpoints = 3'072;
  rackscale::models::SwitchSpec chassis = spec.scale_out.switch_spec;
  chassis.radix = 576;
  spec.scale_out.fat_tree.spine_switch = chassis;
  spec.scale_out.fat_tree.core_switch = chassis;
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(t.device_count(), 24'576u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 1'536u);
  // A leaf: 16 NICs, 16 up. A pod spine: 192 leaves x ceil(16 / S) ports down with ceil(down / 7) up
  // within 576 ports: S = 8 spines of 2 cables per leaf (384 down, 55 up); 8 pods.
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 8u * 8);
  std::uint64_t pod_uplinks = 0;
  for (NodeId n = 0; n < t.nodes.size(); ++n) {
    if (t.nodes[n].role != SwitchRole::spine) continue;
    std::uint32_t up = 0;
    for (const Port& p : t.ports_of(n)) up += p.link_class == LinkClass::spine_core ? 1 : 0;
    EXPECT_EQ(up, 55u);
    pod_uplinks += up;
  }
  pod_uplinks /= 8;
  const double oversubscription = 3'072.0 / static_cast<double>(pod_uplinks);
  EXPECT_GT(oversubscription, 6.9);
  EXPECT_LE(oversubscription, 7.0);
  // The cores take 8 x 440 uplinks, floor(576 / 8) = 72 per pod each: ceil(440 / 72) = 7 cores.
  EXPECT_EQ(switches_of(t, SwitchRole::core), 7u);
  EXPECT_NE(t.description.find("64/576/576-port"), std::string::npos) << t.description;
  // Pods are contiguous: GPUs 0..3071 in pod 0 reach each other without a core.
  EXPECT_EQ(route(t, 0, 3'071).hops(), 4u);
  EXPECT_EQ(route(t, 0, 3'072).hops(), 6u);
}

// Parallel cables are cables like any other: ECMP spreads flows, and spraying chunks, over all of them.
TEST(FatTreeSizing, RoutingUsesEveryParallelCable) {
  // 128 NICs on radix 64: 4 leaves of 32 NICs with 32 uplinks, 2 spines with 16 cables to each leaf.
  for (const RoutingMode mode : {RoutingMode::ecmp, RoutingMode::spray}) {
    const Topology t = build_topology(endpoints_tree(128, 64), mode);
    ASSERT_EQ(switches_of(t, SwitchRole::spine), 2u);
    std::set<std::uint32_t> up_ports;
    std::set<std::pair<NodeId, PortIndex>> down_ports;
    for (std::uint64_t i = 0; i < 4'000; ++i) {
      const bool ecmp = mode == RoutingMode::ecmp;
      const Route r = route(t, 0, 127, ecmp ? i : 7, ecmp ? 0 : i);
      ASSERT_EQ(r.hops(), 4u);
      up_ports.insert(r.ports[1]);    // leaf 0's uplink
      down_ports.insert({r.nodes[2], r.ports[2]});  // the spine's cable down to leaf 3
    }
    EXPECT_EQ(up_ports.size(), 32u);
    EXPECT_EQ(down_ports.size(), 32u);  // 16 per spine, both spines
  }
  EXPECT_GT(expect_one_last_cable(build_topology(endpoints_tree(128, 64), RoutingMode::spray)), 0u);
  // Cores with two cables to each pod (test_fat_tree.cpp, OversubscribedThreeTierCounts).
  EXPECT_GT(expect_one_last_cable(build_topology(fat_tree(50, 1, 8, 3, 3, 1), RoutingMode::spray)), 0u);
}

TEST(FatTreeSizing, UpperTiersMayUseOtherSwitches) {
  ClusterSpec spec = endpoints_tree(256, 16);
  rackscale::models::SwitchSpec spine = spec.scale_out.switch_spec;
  spine.radix = 64;
  spine.port_bandwidth = kSwitchBandwidth / 2;
  spine.latency = 7'000;
  spec.scale_out.fat_tree.spine_switch = spine;
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  // 8 down / 8 up per leaf: 32 leaves, each spine has floor(64/32) = 2 ports per leaf: 4 spines.
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 32u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 4u);
  const NodeId leaf = t.port(t.devices[0], 0).peer;
  const Port& up = t.port(leaf, 0);
  EXPECT_EQ(up.bandwidth, kSwitchBandwidth / 2);         // the slower end
  EXPECT_EQ(up.latency, kCableLatency + 7'000);           // into the spine
  EXPECT_EQ(t.port(up.peer, up.peer_port).latency, kCableLatency + kSwitchLatency);  // into the leaf
}

}  // namespace
