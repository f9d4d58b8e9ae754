// Rail-optimized fat trees: NIC i of every node of a rail group shares leaf i of the group.
#include <map>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

ClusterSpec rail_tree(std::uint32_t nodes, std::uint32_t devices_per_node, std::uint32_t radix, std::uint32_t tiers,
                      std::uint32_t nodes_per_rail_group) {
  ClusterSpec c = fat_tree(nodes, devices_per_node, radix, tiers);
  c.scale_out.kind = ScaleOutKind::rail_fat_tree;
  c.scale_out.fat_tree.nodes_per_rail_group = nodes_per_rail_group;
  return c;
}

// The ordinal of each leaf node among the leaves, in node order.
std::map<NodeId, std::uint32_t> leaf_ordinals(const Topology& t) {
  std::map<NodeId, std::uint32_t> ordinal;
  for (NodeId n = 0; n < t.nodes.size(); ++n) {
    if (t.nodes[n].role == SwitchRole::leaf) ordinal.emplace(n, static_cast<std::uint32_t>(ordinal.size()));
  }
  return ordinal;
}

TEST(RailFatTree, TwoTierCountsAndRails) {
  // 7 nodes of 4 devices (4 rails), groups of 3 nodes -> 3 groups (3, 3, 1) x 4 rails = 12 leaves.
  // Radix 16 at 1:1: a leaf of 3 nodes needs 3 uplinks; a 16-port spine has room for one cable per
  // leaf, so 3 spines. Links: 28 NIC + 12*3 = 64.
  const Topology t = build_topology(rail_tree(7, 4, 16, 2, 3), RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 12u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 3u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 28u);
  EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 36u);
  EXPECT_EQ(t.link_count(), 64u);
  const auto ordinal = leaf_ordinals(t);
  for (std::uint32_t d = 0; d < 28; ++d) {
    const std::uint32_t node = d / 4;
    const std::uint32_t rail = d % 4;
    const Port& nic = t.port(t.devices[d], 0);
    EXPECT_EQ(ordinal.at(nic.peer), node / 3 * 4 + rail) << "device " << d;
    EXPECT_EQ(nic.peer_port, 3u + node % 3) << "device " << d << ": slot = node within its group, after 3 uplinks";
  }
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    const bool same_leaf = s / 4 / 3 == d / 4 / 3 && s % 4 == d % 4;
    return same_leaf ? 2 : 4;
  });
}

TEST(RailFatTree, ScaleUpFirstThenRails) {
  ClusterSpec spec = rail_tree(7, 4, 16, 2, 3);
  with_scale_up(spec, ScaleUpKind::nvswitch, 4);
  spec.nodes_per_rack = 1;
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 7u);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    if (s / 4 == d / 4) return 2;
    const bool same_leaf = s / 4 / 3 == d / 4 / 3 && s % 4 == d % 4;
    return same_leaf ? 2 : 4;
  });
}

TEST(RailFatTree, ThreeTierGroupsWholeRailGroupsIntoPods) {
  // 18 nodes x 2 rails, groups of 4 nodes -> 5 groups (4, 4, 4, 4, 2) -> 10 leaves. Radix 8 at 1:1:
  // leaves 4 down / 4 up, spines 4 down / 4 up; a pod holds floor(4/2) = 2 groups = 4 leaves ->
  // 3 pods (4, 4, 2 leaves), 12 spines; a pod's 16 uplinks over cores with room for floor(8/3) = 2
  // cables per pod: 8 cores. Links: 36 + 10*4 + 12*4 = 124.
  const Topology t = build_topology(rail_tree(18, 2, 8, 3, 4), RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 10u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 12u);
  EXPECT_EQ(switches_of(t, SwitchRole::core), 8u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 36u);
  EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 40u);
  EXPECT_EQ(links_of(t, LinkClass::spine_core), 48u);
  EXPECT_EQ(t.link_count(), 124u);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    const std::uint32_t s_leaf = s / 2 / 4 * 2 + s % 2;
    const std::uint32_t d_leaf = d / 2 / 4 * 2 + d % 2;
    if (s_leaf == d_leaf) return 2;
    if (s_leaf / 4 == d_leaf / 4) return 4;
    return 6;
  });
}

TEST(RailFatTree, EveryChunkOfAMessageReachesItsDestinationOverOneCable) {
  EXPECT_GT(expect_one_last_cable(build_topology(rail_tree(8, 4, 16, 2, 2), RoutingMode::spray)), 0u);
}

// Path keys on a rail tree (Router::path_key): equal keys, one route; no more keys than routes. Between
// pods of rail_tree(8, 4, 16, 2, 2) a route chooses among the leaf's, the spine's and the core's cables.
TEST(RailFatTree, FlowsWithOnePathKeyTakeOneRoute) {
  const PathKeyCounts counts =
      expect_equal_path_keys_take_one_route(build_topology(rail_tree(8, 4, 16, 2, 2), RoutingMode::ecmp), 128);
  EXPECT_EQ(counts.pairs_with_more_keys_than_routes, 0u);
  EXPECT_EQ(counts.most_keys, counts.most_routes);
  EXPECT_GT(counts.most_routes, 1u);
}

// Only the devices of one rail in one rail group share a leaf: 4 groups x 4 rails = 16 leaves of 2 NICs,
// 16 x 2 x 1 ordered pairs. Two rails of one node meet only above the leaves, so they are not flow-free.
TEST(RailFatTree, OnlyTheDevicesOfOneRailLeafAreFlowFree) {
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(build_topology(rail_tree(8, 4, 16, 2, 2), RoutingMode::ecmp)), 32u);
}

}  // namespace
