// Scale-up fabrics: NVSwitch per node, NVL72 rack domains, direct meshes, and single-domain clusters.
#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

ClusterSpec single_domain(std::uint32_t nodes, std::uint32_t devices_per_node, std::uint32_t nodes_per_rack,
                          ScaleUpKind kind) {
  ClusterSpec c = cluster(nodes, devices_per_node, nodes_per_rack);
  with_scale_up(c, kind, nodes * devices_per_node);
  return c;
}

TEST(ScaleUp, Nvl72RackIsOneNvSwitchNodeAfterItsDevices) {
  // 18 nodes x 4 devices in one rack, one NVSwitch domain of 72, no scale-out.
  const Topology t = build_topology(single_domain(18, 4, 18, ScaleUpKind::nvswitch), RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(t.device_count(), 72u);
  EXPECT_EQ(t.switch_count(), 1u);
  ASSERT_EQ(t.racks.size(), 1u);
  EXPECT_EQ(t.racks[0].node_count, 73u);
  EXPECT_EQ(t.nodes[72].role, SwitchRole::scale_up);
  EXPECT_EQ(t.nodes[72].port_count, 72u);
  EXPECT_EQ(t.link_count(), 72u);
  const Port& up = t.port(t.devices[5], 0);
  EXPECT_EQ(up.peer, 72u);
  EXPECT_EQ(up.peer_port, 5u);  // the switch's port i is the domain's device i
  EXPECT_EQ(up.bandwidth, kScaleUpBandwidth);
  // 501 ps device to device, split 251 + 250.
  EXPECT_EQ(up.latency + t.port(72, 5).latency, kScaleUpLatency);
  EXPECT_EQ(up.latency, 251u);
  expect_all_pairs(t, [](std::uint32_t, std::uint32_t) { return 2; });
}

TEST(ScaleUp, Nvl72DomainsLiveInTheirComputeRacksBesideAFatTree) {
  // 36 nodes x 4 in racks of 18 nodes: 2 NVL72 racks, each 72 devices then its NVSwitch. Radix 32 fat
  // tree: 16 NICs per leaf -> 9 leaves, 6 spines.
  ClusterSpec spec = fat_tree(36, 4, 32, 2);
  spec.nodes_per_rack = 18;
  with_scale_up(spec, ScaleUpKind::nvswitch, 72);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  ASSERT_GE(t.racks.size(), 2u);
  EXPECT_EQ(t.racks[0].first_node, 0u);
  EXPECT_EQ(t.racks[0].node_count, 73u);
  EXPECT_EQ(t.racks[1].first_node, 73u);
  EXPECT_EQ(t.racks[1].node_count, 73u);
  EXPECT_EQ(t.nodes[72].role, SwitchRole::scale_up);
  EXPECT_EQ(t.nodes[145].role, SwitchRole::scale_up);
  EXPECT_EQ(t.devices[72], 73u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 9u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 6u);  // 9 x 16 uplinks; floor(32 / 9) = 3 cables per leaf each
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    if (s / 72 == d / 72) return 2;
    return s / 16 == d / 16 ? 2 : 4;
  });
}

TEST(ScaleUp, DomainsMaySpanNodesWithinARack) {
  // Nodes of 4, racks of 2 nodes, NVSwitch domains of 8 = one per rack; 4 nodes -> 2 racks of 8 + 1.
  ClusterSpec spec = fat_tree(4, 4, 8, 2);
  with_scale_up(spec, ScaleUpKind::nvswitch, 8);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 2u);
  EXPECT_EQ(t.racks[0].node_count, 9u);
  EXPECT_EQ(t.racks[1].node_count, 9u);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) { return s / 8 == d / 8 ? 2 : (s / 4 == d / 4 ? 2 : 4); });
}

TEST(ScaleUp, TheLastRackMayBePartial) {
  // 5 nodes x 2 devices, racks of 2 nodes, an NVSwitch per node: racks of 4 devices + 2 switches,
  // and a last rack of 2 devices + 1 switch.
  ClusterSpec spec = fat_tree(5, 2, 8, 2);
  with_scale_up(spec, ScaleUpKind::nvswitch, 2);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  ASSERT_EQ(t.racks.size(), 3u + 2);  // + 3 leaves and 4 spines, 4 switches per network rack
  EXPECT_EQ(t.racks[0].node_count, 6u);
  EXPECT_EQ(t.racks[1].node_count, 6u);
  EXPECT_EQ(t.racks[2].node_count, 3u);
  EXPECT_EQ(t.devices[8], 12u);
  EXPECT_EQ(t.devices[9], 13u);
  EXPECT_EQ(t.nodes[14].role, SwitchRole::scale_up);
  EXPECT_EQ(t.port(t.devices[9], 0).peer, 14u);
  EXPECT_EQ(t.nodes[4].role, SwitchRole::scale_up);   // rack 0: devices 0..3, then node 0's and node 1's switches
  EXPECT_EQ(t.port(t.devices[3], 0).peer, 5u);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) { return s / 2 == d / 2 ? 2 : (s / 4 == d / 4 ? 2 : 4); });
}

TEST(ScaleUp, MeshLinksEveryPairOfADomainDirectly) {
  // 4 nodes x 4 devices, a mesh per node: C(4,2) = 6 links a domain, each at 450/3 GB/s.
  ClusterSpec spec = fat_tree(4, 4, 8, 2);
  with_scale_up(spec, ScaleUpKind::mesh, 4);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(links_of(t, LinkClass::scale_up), 24u);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 0u);
  // Device 6 (local 2 of node 1): ports 0, 1, 2 to locals 0, 1, 3; port 3 its NIC.
  const NodeId device = t.devices[6];
  ASSERT_EQ(t.nodes[device].port_count, 4u);
  EXPECT_EQ(t.nodes[t.port(device, 0).peer].device, 4u);
  EXPECT_EQ(t.nodes[t.port(device, 1).peer].device, 5u);
  EXPECT_EQ(t.nodes[t.port(device, 2).peer].device, 7u);
  EXPECT_EQ(t.port(device, 3).link_class, LinkClass::nic);
  EXPECT_EQ(t.port(device, 0).bandwidth, kScaleUpBandwidth / 3);
  EXPECT_EQ(t.port(device, 0).latency, kScaleUpLatency);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) { return s / 4 == d / 4 ? 1 : 4; });
}

TEST(ScaleUp, SingleMeshDomainAndLoneDevice) {
  const Topology mesh = build_topology(single_domain(2, 4, 2, ScaleUpKind::mesh), RoutingMode::ecmp);
  expect_well_formed(mesh);
  EXPECT_EQ(mesh.link_count(), 28u);  // C(8,2)
  expect_all_pairs(mesh, [](std::uint32_t, std::uint32_t) { return 1; });
  // One domain, no scale-out: every route is fixed, so all 8 x 7 ordered pairs are flow-free.
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(mesh), 56u);

  const Topology lone = build_topology(cluster(1, 1, 1), RoutingMode::ecmp);
  expect_well_formed(lone);
  EXPECT_EQ(lone.device_count(), 1u);
  EXPECT_EQ(lone.link_count(), 0u);
}

TEST(ScaleUp, TheLeadsNvl72ClusterHasTheExpectedCounts) {
  // 1,389 NVL72 racks (18 nodes x 4), a NIC per device, 3-tier fat tree of 144-port switches at 1:1:
  // 72 down / 72 up at both tiers. 100,008 NICs -> 1,389 leaves -> 20 pods (19 of 72 leaves + 21),
  // 20 x 72 = 1,440 spines; a pod's 72 x 72 = 5,184 uplinks over cores with room for floor(144/20) = 7
  // cables per pod: ceil(5,184 / 7) = 741 cores.
  ClusterSpec spec = fat_tree(1'389 * 18, 4, 144, 3);
  spec.nodes_per_rack = 18;
  spec.scale_out.switches_per_rack = 16;
  with_scale_up(spec, ScaleUpKind::nvswitch, 72);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  EXPECT_EQ(t.device_count(), 100'008u);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 1'389u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 1'389u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 1'440u);
  EXPECT_EQ(switches_of(t, SwitchRole::core), 741u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 100'008u);
  EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 1'389u * 72);
  EXPECT_EQ(links_of(t, LinkClass::spine_core), 20u * 72 * 72);
  EXPECT_EQ(route(t, 0, 71).hops(), 2u);
  EXPECT_EQ(route(t, 0, 72).hops(), 4u);          // leaf 0 holds NICs 0..71, leaf 1 72..143: same pod
  EXPECT_EQ(route(t, 0, 72 * 72).hops(), 6u);     // leaf 72: pod 1
}

}  // namespace
