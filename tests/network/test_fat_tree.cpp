// Fat trees: counts against the closed forms, hop counts of up/down routes, ECMP and spraying.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

// One device and one NIC per node: the endpoints of the classic k-ary fat tree.
ClusterSpec k_ary(std::uint32_t k) { return fat_tree(k * k * k / 4, 1, k, 3); }

TEST(FatTree, KAryTreeHasTheClassicCounts) {
  for (const std::uint32_t k : {4u, 6u, 8u, 12u}) {
    SCOPED_TRACE(k);
    const Topology t = build_topology(k_ary(k), RoutingMode::ecmp);
    expect_well_formed(t);
    // Al-Fares et al.: k^3/4 hosts, k^2/2 leaves (edge), k^2/2 spines (aggregation), k^2/4 cores.
    EXPECT_EQ(t.device_count(), k * k * k / 4);
    EXPECT_EQ(t.switch_count(), 5 * k * k / 4);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), k * k / 2);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), k * k / 2);
    EXPECT_EQ(switches_of(t, SwitchRole::core), k * k / 4);
    EXPECT_EQ(t.link_count(), 3 * k * k * k / 4);
    EXPECT_EQ(links_of(t, LinkClass::nic), k * k * k / 4);
    EXPECT_EQ(links_of(t, LinkClass::leaf_spine), k * k * k / 4);
    EXPECT_EQ(links_of(t, LinkClass::spine_core), k * k * k / 4);
    for (const Node& node : t.nodes) {
      if (node.kind == NodeKind::switch_node) {
        EXPECT_EQ(node.port_count, k) << "a full tree uses every port";
      }
    }
  }
}

TEST(FatTree, KAryTreeRoutesEveryPairUpOnlyAsFarAsNeeded) {
  for (const std::uint32_t k : {4u, 6u, 8u}) {
    SCOPED_TRACE(k);
    const Topology t = build_topology(k_ary(k), RoutingMode::ecmp);
    const std::uint32_t hosts_per_leaf = k / 2;
    const std::uint32_t hosts_per_pod = k * k / 4;
    expect_all_pairs(t, [&](std::uint32_t s, std::uint32_t d) {
      if (s / hosts_per_leaf == d / hosts_per_leaf) return 2;
      if (s / hosts_per_pod == d / hosts_per_pod) return 4;
      return 6;
    });
  }
}

TEST(FatTree, OversubscribedTwoTierCounts) {
  // Radix 8 at 3:1: 6 ports down, ceil(6/3) = 2 up. 20 NICs -> ceil(20/6) = 4 leaves (6, 6, 6, 2) with
  // 8 uplinks in all: one 8-port spine takes both uplinks of every leaf (2 parallel cables each).
  // Links: 20 NIC + 4*2 leaf-spine = 28.
  const Topology t = build_topology(fat_tree(20, 1, 8, 2, 3), RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(t.device_count(), 20u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 4u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 1u);
  EXPECT_EQ(switches_of(t, SwitchRole::core), 0u);
  EXPECT_EQ(t.link_count(), 28u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 20u);
  EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 8u);
  // Leaves: 2 up + their NICs; the spine: two ports per leaf.
  std::vector<std::uint32_t> leaf_ports;
  std::vector<std::uint32_t> spine_ports;
  for (const Node& node : t.nodes) {
    if (node.role == SwitchRole::leaf) leaf_ports.push_back(node.port_count);
    if (node.role == SwitchRole::spine) spine_ports.push_back(node.port_count);
  }
  EXPECT_EQ(leaf_ports, (std::vector<std::uint32_t>{8, 8, 8, 4}));
  EXPECT_EQ(spine_ports, (std::vector<std::uint32_t>{8}));
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) { return s / 6 == d / 6 ? 2 : 4; });
}

TEST(FatTree, OversubscribedThreeTierCounts) {
  {
    // Radix 8, leaves 3:1 (6 down, 2 up), spines 1:1 (4 down, 4 up). 50 NICs -> 9 leaves -> pods of 4
    // leaves: 3 pods (4, 4, 1) with 2 spines each = 6 spines, 24 spine uplinks; a core has room for
    // floor(8/3) = 2 cables per pod, so the 8 uplinks of a pod need 4 cores of 3 x 2 ports.
    // Links: 50 NIC + 9*2 leaf-spine + 6*4 spine-core = 92.
    const Topology t = build_topology(fat_tree(50, 1, 8, 3, 3, 1), RoutingMode::ecmp);
    expect_well_formed(t);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), 9u);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), 6u);
    EXPECT_EQ(switches_of(t, SwitchRole::core), 4u);
    EXPECT_EQ(links_of(t, LinkClass::nic), 50u);
    EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 18u);
    EXPECT_EQ(links_of(t, LinkClass::spine_core), 24u);
    EXPECT_EQ(t.link_count(), 92u);
    for (const Node& node : t.nodes) {
      if (node.role == SwitchRole::core) {
        EXPECT_EQ(node.port_count, 6u);
      }
    }
    expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
      if (s / 6 == d / 6) return 2;
      if (s / 24 == d / 24) return 4;  // a pod: 4 leaves x 6 NICs
      return 6;
    });
  }
  {
    // Radix 8, leaves 1:1 (4 down, 4 up), spines 3:1 (6 down, 2 up). 100 NICs -> 25 leaves -> pods of 6
    // leaves: 5 pods with 4 spines each = 20 spines; a core has room for floor(8/5) = 1 cable per pod,
    // so the 8 uplinks of a pod need 8 cores with 5 ports each.
    // Links: 100 NIC + 25*4 + 20*2 = 240.
    const Topology t = build_topology(fat_tree(100, 1, 8, 3, 1, 3), RoutingMode::ecmp);
    expect_well_formed(t);
    EXPECT_EQ(switches_of(t, SwitchRole::leaf), 25u);
    EXPECT_EQ(switches_of(t, SwitchRole::spine), 20u);
    EXPECT_EQ(switches_of(t, SwitchRole::core), 8u);
    EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 100u);
    EXPECT_EQ(links_of(t, LinkClass::spine_core), 40u);
    EXPECT_EQ(t.link_count(), 240u);
  }
}

TEST(FatTree, PartialTreeBuildsOnlyTheLeavesAndPodsItNeeds) {
  // k = 4 holds 16 hosts; 9 need ceil(9/2) = 5 leaves in ceil(5/2) = 3 pods (2, 2, 1 leaves), 6 spines;
  // a core has room for floor(4/3) = 1 cable per pod, so a pod's 4 uplinks need 4 cores.
  // Links: 9 + 5*2 + 3*2*2 = 31.
  const Topology t = build_topology(fat_tree(9, 1, 4, 3), RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 5u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 6u);
  EXPECT_EQ(switches_of(t, SwitchRole::core), 4u);
  EXPECT_EQ(t.link_count(), 31u);
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    if (s / 2 == d / 2) return 2;
    if (s / 4 == d / 4) return 4;
    return 6;
  });
}

TEST(FatTree, SwitchesFillNetworkRacksPodByPodThenCores) {
  // k = 4: 16 hosts in 8 compute racks of 2; each pod (2 leaves, 2 spines) takes a rack of 3 and a rack
  // of 1 at 3 switches per rack, and the 4 cores take a rack of 3 and one of 1.
  ClusterSpec spec = k_ary(4);
  spec.scale_out.switches_per_rack = 3;
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  ASSERT_EQ(t.racks.size(), 8u + 4 * 2 + 2);
  std::vector<std::uint32_t> sizes;
  std::string roles;
  for (const Rack& rack : t.racks) {
    sizes.push_back(rack.node_count);
    if (rack.kind == RackKind::compute) continue;
    for (NodeId n = rack.first_node; n < rack.first_node + rack.node_count; ++n) {
      roles += t.nodes[n].role == SwitchRole::leaf ? 'L' : t.nodes[n].role == SwitchRole::spine ? 'S' : 'C';
    }
    roles += '|';
  }
  EXPECT_EQ(sizes, (std::vector<std::uint32_t>{2, 2, 2, 2, 2, 2, 2, 2, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1}));
  EXPECT_EQ(roles, "LLS|S|LLS|S|LLS|S|LLS|S|CCC|C|");
  for (std::uint32_t r = 0; r < 8; ++r) EXPECT_EQ(t.racks[r].kind, RackKind::compute);
}

TEST(FatTree, PortsCarryTheirCableFigures) {
  const Topology t = build_topology(k_ary(4), RoutingMode::ecmp);
  const NodeId device = t.devices[0];
  ASSERT_EQ(t.nodes[device].port_count, 1u);
  const Port& nic = t.port(device, 0);
  EXPECT_EQ(nic.link_class, LinkClass::nic);
  EXPECT_EQ(nic.bandwidth, kNicBandwidth);  // min(NIC 50 GB/s, switch port 100 GB/s)
  // The NIC's latency is split between its transmit (out of the device) and receive sides.
  EXPECT_EQ(nic.latency, kNicLatency / 2 + kCableLatency + kSwitchLatency);
  const NodeId leaf = nic.peer;
  EXPECT_EQ(t.nodes[leaf].role, SwitchRole::leaf);
  EXPECT_EQ(t.port(leaf, nic.peer_port).latency, kCableLatency + (kNicLatency - kNicLatency / 2));
  // Leaf ports: 2 up first, then its NICs.
  EXPECT_EQ(nic.peer_port, 2u);
  for (PortIndex i = 0; i < 2; ++i) {
    const Port& up = t.port(leaf, i);
    EXPECT_EQ(up.link_class, LinkClass::leaf_spine);
    EXPECT_EQ(t.nodes[up.peer].role, SwitchRole::spine);
    EXPECT_EQ(up.bandwidth, kSwitchBandwidth);
    EXPECT_EQ(up.latency, kCableLatency + kSwitchLatency);
    const Port& core_link = t.port(up.peer, 0);
    EXPECT_EQ(core_link.link_class, LinkClass::spine_core);
    EXPECT_EQ(core_link.latency, kCableLatency + kSwitchLatency);
  }
}

TEST(FatTree, EcmpKeepsAFlowOnOnePathAndSpreadsFlowsOverAllUplinks) {
  // k = 8: 128 hosts, 4 spines per pod, 16 cores. Device 0 (pod 0) to device 127 (pod 7) crosses a core.
  const Topology t = build_topology(k_ary(8), RoutingMode::ecmp);
  std::set<NodeId> spines;
  std::set<NodeId> cores;
  for (std::uint64_t flow = 0; flow < 400; ++flow) {
    const Route first = route(t, 0, 127, flow, 0);
    ASSERT_EQ(first.hops(), 6u);
    for (std::uint64_t chunk = 1; chunk < 4; ++chunk) {
      EXPECT_EQ(route(t, 0, 127, flow, chunk).nodes, first.nodes) << "ECMP must not depend on the chunk";
    }
    EXPECT_EQ(route(t, 0, 127, flow, 0).nodes, first.nodes);
    spines.insert(first.nodes[2]);
    cores.insert(first.nodes[3]);
  }
  EXPECT_EQ(spines.size(), 4u);
  EXPECT_EQ(cores.size(), 16u);
}

TEST(FatTree, SprayingVariesThePathChunkByChunk) {
  const Topology t = build_topology(k_ary(8), RoutingMode::spray);
  std::set<NodeId> spines;
  std::set<NodeId> cores;
  for (std::uint64_t chunk = 0; chunk < 400; ++chunk) {
    const Route r = route(t, 0, 127, 42, chunk);
    ASSERT_EQ(r.hops(), 6u);
    EXPECT_EQ(route(t, 0, 127, 42, chunk).nodes, r.nodes) << "a chunk's path is still deterministic";
    spines.insert(r.nodes[2]);
    cores.insert(r.nodes[3]);
  }
  EXPECT_EQ(spines.size(), 4u);
  EXPECT_EQ(cores.size(), 16u);
}

TEST(FatTree, NvSwitchNodesCarryTrafficInsideTheirDomain) {
  // 4 nodes of 8 devices, an NVSwitch per node; radix 8: 4 NICs per leaf, 8 leaves, 4 spines.
  ClusterSpec spec = fat_tree(4, 8, 8, 2);
  with_scale_up(spec, ScaleUpKind::nvswitch, 8);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 4u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 8u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 4u);
  EXPECT_EQ(links_of(t, LinkClass::scale_up), 32u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 32u);
  const NodeId device = t.devices[9];
  EXPECT_EQ(t.port(device, 0).link_class, LinkClass::scale_up);  // port 0: the NVSwitch
  EXPECT_EQ(t.port(device, 1).link_class, LinkClass::nic);       // port 1: the NIC
  expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) {
    if (s / 8 == d / 8) return 2;  // device, NVSwitch, device
    if (s / 4 == d / 4) return 2;  // never reached: a leaf's 4 NICs are in one node
    return 4;
  });
  const Route inside = route(t, 1, 6);
  EXPECT_EQ(inside.links, (std::vector<LinkClass>{LinkClass::scale_up, LinkClass::scale_up}));
  const Route across = route(t, 1, 9);
  EXPECT_EQ(across.links.front(), LinkClass::nic);
}

TEST(FatTree, TheLeadsH100ClusterHasTheExpectedCounts) {
  // 12,288 nodes x 8 H100, 8 NICs each, NVSwitch per node; 3-tier radix 64 at 1:1 / 3:1:
  // d1 = 32, u1 = 32; d2 = 48, u2 = 16. 98,304 NICs -> 3,072 leaves -> 64 pods of 48 leaves;
  // 64 x 32 = 2,048 spines; 32 x 16 = 512 cores of 64 ports.
  ClusterSpec spec = fat_tree(12'288, 8, 64, 3, 1, 3);
  spec.nodes_per_rack = 4;
  spec.scale_out.switches_per_rack = 16;
  with_scale_up(spec, ScaleUpKind::nvswitch, 8);
  const Topology t = build_topology(spec, RoutingMode::ecmp);
  EXPECT_EQ(t.device_count(), 98'304u);
  EXPECT_EQ(switches_of(t, SwitchRole::scale_up), 12'288u);
  EXPECT_EQ(switches_of(t, SwitchRole::leaf), 3'072u);
  EXPECT_EQ(switches_of(t, SwitchRole::spine), 2'048u);
  EXPECT_EQ(switches_of(t, SwitchRole::core), 512u);
  EXPECT_EQ(links_of(t, LinkClass::scale_up), 98'304u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 98'304u);
  EXPECT_EQ(links_of(t, LinkClass::leaf_spine), 3'072u * 32);
  EXPECT_EQ(links_of(t, LinkClass::spine_core), 64u * 32 * 16);
  // 3,072 compute racks of 4 nodes; each pod's 80 switches fill 5 racks; the cores 32 racks.
  EXPECT_EQ(t.racks.size(), 3'072u + 64 * 5 + 32);
  EXPECT_NE(t.description.find("3-tier fat tree of 64-port switches, oversubscription 1:1 / 3:1"), std::string::npos)
      << t.description;
  // Spot-check routes: same node, same leaf (32 NICs = 4 nodes), same pod (48 leaves = 1536), far.
  EXPECT_EQ(route(t, 0, 7).hops(), 2u);
  EXPECT_EQ(route(t, 0, 31).hops(), 2u);
  EXPECT_EQ(route(t, 0, 1535).hops(), 4u);
  EXPECT_EQ(route(t, 0, 1536).hops(), 6u);
  EXPECT_EQ(route(t, 5, 98'303).hops(), 6u);
}

// Spraying scatters a message's chunks over every spine and core, but they all come down through the
// destination's leaf and its one cable to the device (router.hpp's contract); so does ECMP.
TEST(FatTree, EveryChunkOfAMessageReachesItsDestinationOverOneCable) {
  EXPECT_GT(expect_one_last_cable(build_topology(k_ary(4), RoutingMode::spray)), 0u);
  EXPECT_EQ(expect_one_last_cable(build_topology(k_ary(4), RoutingMode::ecmp)), 0u);
  ClusterSpec nodes = fat_tree(8, 4, 8, 2);  // NVSwitch domains of 4 inside the nodes
  with_scale_up(nodes, ScaleUpKind::nvswitch, 4);
  EXPECT_GT(expect_one_last_cable(build_topology(nodes, RoutingMode::spray)), 0u);
  ClusterSpec meshes = fat_tree(8, 4, 8, 2);
  with_scale_up(meshes, ScaleUpKind::mesh, 4);
  EXPECT_GT(expect_one_last_cable(build_topology(meshes, RoutingMode::spray)), 0u);
}

// Flow-free pairs (Router::flow_free): a pair under one leaf, or in one scale-up domain, takes one path
// whatever its flow or chunk, and the router says so for exactly those pairs (counted by hand).
TEST(FatTree, PairsUnderOneLeafOrInOneDomainAreFlowFree) {
  // k = 4: 8 leaves of 2 devices, so 8 x 2 x 1 ordered pairs share a leaf; ECMP and spraying alike.
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(build_topology(k_ary(4), RoutingMode::ecmp)), 16u);
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(build_topology(k_ary(4), RoutingMode::spray)), 16u);
  // 8 nodes of 8 devices in NVSwitch domains of 8; leaves of 4 NICs, so each domain spans two leaves and
  // its 8 x 7 ordered pairs are all flow-free (the scale-up route), 8 domains of them.
  ClusterSpec wide = fat_tree(8, 8, 8, 3);
  with_scale_up(wide, ScaleUpKind::nvswitch, 8);
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(build_topology(wide, RoutingMode::ecmp)), 448u);
  // Domains of 2 inside leaves of 4: 8 leaves (32 devices) x 4 x 3 ordered pairs under one leaf.
  ClusterSpec narrow = fat_tree(8, 4, 8, 2);
  with_scale_up(narrow, ScaleUpKind::mesh, 2);
  EXPECT_EQ(expect_flow_free_pairs_keep_one_path(build_topology(narrow, RoutingMode::spray)), 96u);
}

// Path keys (Router::path_key): flows with equal keys take one route, and a pair has no more keys than
// the routes its flows take, so the analytical fabric's path table holds one entry per route. The most
// routes of a pair, by hand: a k-ary tree has k/2 between leaves of a pod and (k/2)^2 between pods; the
// 3:1 two-tier tree of OversubscribedTwoTierCounts has 2 uplinks to one spine, each leaf-spine pair
// joined by 2 cables, so 2 x 2 between leaves; the 3:1 / 1:1 three-tier tree of
// OversubscribedThreeTierCounts has 2 uplinks, 4 uplinks per spine and 2 cables from each core to each
// pod: 2 x 4 x 2 = 16 between pods.
TEST(FatTree, FlowsWithOnePathKeyTakeOneRouteAndPairsHaveNoMoreKeysThanRoutes) {
  const struct {
    ClusterSpec spec;
    RoutingMode routing;
    std::size_t most_routes;
  } cases[] = {
      {k_ary(4), RoutingMode::ecmp, 4},
      {k_ary(4), RoutingMode::spray, 4},
      {k_ary(6), RoutingMode::ecmp, 9},
      {fat_tree(20, 1, 8, 2, 3), RoutingMode::ecmp, 4},
      {fat_tree(50, 1, 8, 3, 3, 1), RoutingMode::ecmp, 16},
  };
  for (const auto& c : cases) {
    const PathKeyCounts counts = expect_equal_path_keys_take_one_route(build_topology(c.spec, c.routing), 128);
    EXPECT_EQ(counts.pairs_with_more_keys_than_routes, 0u);
    EXPECT_EQ(counts.most_routes, c.most_routes);
    EXPECT_EQ(counts.most_keys, c.most_routes);
  }
}

}  // namespace
