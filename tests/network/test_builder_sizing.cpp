// The rail-optimized tree, dragonfly and torus builders against closed forms written out here, for the
// cluster sizes and radices of issue 21 (as test_fat_tree_sizing.cpp does for the fat tree), and with
// no switch that no route crosses.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

constexpr std::uint32_t kSizes[] = {64, 128, 1'024, 2'048, 4'096, 16'384, 32'768, 98'304};
constexpr std::uint32_t kRadices[] = {40, 64, 128};

struct Counts {
  std::uint64_t switches[3]{};  // leaves / routers, spines, cores
  std::uint64_t links[3]{};     // NIC, leaf-spine / local, spine-core / global
};

// --- Rail-optimized trees -------------------------------------------------------------------------

// Nodes of R NICs (one rail per NIC index) on k-port switches at 1:1, by hand:
//   a rail leaf has d = k/2 ports down and up; a rail group is g = min(d, N) nodes, so G = ceil(N/g)
//   groups and L = G x R leaves, each with u = g uplinks (its fullest group).
//   L <= k: two tiers; a spine has floor(k/L) ports per leaf: S = ceil(u / floor(k/L)) spines.
//   else three: a pod holds the most whole rail groups a spine serves, Lp = floor(d/R) x R leaves,
//   P = ceil(L/Lp) pods of S = ceil(u / floor(d/Lp)) spines, each with Lp x ceil(u/S) ports down and as
//   many up; a core has floor(k/P) ports per pod: C = ceil(S x up / floor(k/P)); P > k does not fit.
std::optional<Counts> rail_non_blocking(std::uint64_t endpoints, std::uint64_t k, std::uint64_t rails) {
  const std::uint64_t nodes = endpoints / rails;
  const std::uint64_t d = k / 2;
  const std::uint64_t g = std::min(d, nodes);
  const std::uint64_t leaves = ceil_div(nodes, g) * rails;
  const std::uint64_t u = g;
  Counts c;
  c.switches[0] = leaves;
  c.links[0] = endpoints;
  c.links[1] = leaves * u;
  if (leaves <= k) {
    c.switches[1] = ceil_div(u, k / leaves);
    return c;
  }
  const std::uint64_t pod = d / rails * rails;
  const std::uint64_t pods = ceil_div(leaves, pod);
  if (pods > k) return std::nullopt;
  const std::uint64_t spines = ceil_div(u, d / pod);
  const std::uint64_t up = pod * ceil_div(u, spines);
  c.switches[1] = pods * spines;
  c.switches[2] = ceil_div(spines * up, k / pods);
  c.links[2] = pods * spines * up;
  return c;
}

TEST(RailFatTreeSizing, CountsMatchTheClosedFormsForEightSizesAndThreeRadices) {
  constexpr std::uint32_t kRails = 8;
  for (const std::uint32_t radix : kRadices) {
    for (const std::uint32_t endpoints : kSizes) {
      SCOPED_TRACE(std::to_string(endpoints) + " endpoints, radix " + std::to_string(radix));
      ClusterSpec spec = fat_tree(endpoints / kRails, kRails, radix, 0);
      spec.scale_out.kind = ScaleOutKind::rail_fat_tree;
      spec.nodes_per_rack = 4;
      spec.scale_out.switches_per_rack = 16;
      const auto expected = rail_non_blocking(endpoints, radix, kRails);
      if (!expected) {
        // P > k pods: k pods of Lp leaves, each serving g nodes, hold k x Lp x g NICs.
        const std::uint64_t d = radix / 2;
        expect_error(spec, RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
                     "holds at most " + std::to_string(std::uint64_t{radix} * (d / kRails * kRails) * d) + " NICs");
        continue;
      }
      const Topology t = build_topology(spec, RoutingMode::spray);
      expect_well_formed(t);
      EXPECT_EQ(switches_of(t, SwitchRole::leaf), expected->switches[0]);
      EXPECT_EQ(switches_of(t, SwitchRole::spine), expected->switches[1]);
      EXPECT_EQ(switches_of(t, SwitchRole::core), expected->switches[2]);
      EXPECT_EQ(links_of(t, LinkClass::nic), expected->links[0]);
      EXPECT_EQ(links_of(t, LinkClass::leaf_spine), expected->links[1]);
      EXPECT_EQ(links_of(t, LinkClass::spine_core), expected->links[2]);
      for (const Node& node : t.nodes) {
        if (node.kind == NodeKind::switch_node) {
          ASSERT_LE(node.port_count, radix);
        }
      }
      if (endpoints <= 16'384) expect_every_switch_carries_traffic(t);
    }
  }
}

// --- Dragonfly ------------------------------------------------------------------------------------

// A balanced dragonfly of k-port routers (Kim, Dally, Scott, Abts 2008: a = 2p = 2h, so p + (a - 1) + h
// = 4p - 1 <= k): p = h = floor((k + 1) / 4) terminals and global links per router, a = 2p routers per
// group, g = E / (a p) groups (the sizes where whole groups hold the endpoints), at most a h + 1. By
// hand: g a routers; E NIC links; g a (a - 1) / 2 local links; m = floor(a h / (g - 1)) global links per
// pair of groups, g (g - 1) / 2 pairs.
struct BalancedDragonfly {
  std::uint32_t p = 0, a = 0, h = 0, g = 0;
};

std::optional<BalancedDragonfly> balanced(std::uint64_t endpoints, std::uint32_t k) {
  BalancedDragonfly d;
  d.p = d.h = (k + 1) / 4;
  d.a = 2 * d.p;
  const std::uint64_t group = std::uint64_t{d.a} * d.p;
  if (endpoints % group != 0) return std::nullopt;
  d.g = static_cast<std::uint32_t>(endpoints / group);
  return d;
}

// Nodes of 8 NICs on a dragonfly of k-port routers with these counts (0: sized to the NICs).
ClusterSpec dragonfly_cluster(std::uint32_t endpoints, std::uint32_t radix, const DragonflySpec& counts) {
  ClusterSpec spec = cluster(endpoints / 8, 8, 4);
  spec.scale_out.kind = ScaleOutKind::dragonfly;
  spec.scale_out.switch_spec.radix = radix;
  spec.scale_out.switches_per_rack = 16;
  spec.scale_out.dragonfly = counts;
  return spec;
}

// g a routers (the only switches), E NIC, g a (a - 1) / 2 local and m g (g - 1) / 2 global cables with
// m = floor(a h / (g - 1)).
void expect_dragonfly_counts(const Topology& t, std::uint64_t endpoints, std::uint64_t g, std::uint64_t a,
                             std::uint64_t h) {
  EXPECT_EQ(switches_of(t, SwitchRole::router), g * a);
  EXPECT_EQ(t.switch_count(), g * a);
  EXPECT_EQ(links_of(t, LinkClass::nic), endpoints);
  EXPECT_EQ(links_of(t, LinkClass::local), g * a * (a - 1) / 2);
  const std::uint64_t per_pair = g > 1 ? a * h / (g - 1) : 0;
  EXPECT_EQ(links_of(t, LinkClass::global), g * (g - 1) / 2 * per_pair);
}

TEST(DragonflySizing, CountsMatchTheClosedFormsWhereWholeGroupsHoldTheEndpoints) {
  std::uint32_t built = 0;
  for (const std::uint32_t radix : kRadices) {
    for (const std::uint32_t endpoints : kSizes) {
      const auto d = balanced(endpoints, radix);
      if (!d) continue;
      SCOPED_TRACE(std::to_string(endpoints) + " endpoints, radix " + std::to_string(radix));
      const ClusterSpec spec = dragonfly_cluster(endpoints, radix, {d->a, d->p, d->h, d->g});
      const std::uint64_t g = d->g, a = d->a, h = d->h;
      if (g > a * h + 1) {
        expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly.groups", "connect at most");
        continue;
      }
      const Topology t = build_topology(spec, RoutingMode::minimal);
      expect_well_formed(t);
      ++built;
      expect_dragonfly_counts(t, endpoints, g, a, h);
      for (const Node& node : t.nodes) {
        if (node.kind == NodeKind::switch_node) {
          ASSERT_LE(node.port_count, radix);
        }
      }
      if (endpoints <= 16'384) expect_every_switch_carries_traffic(t);
    }
  }
  // Radix 64 (groups of 32 x 16 = 512): the 6 sizes from 1,024; radix 128 (64 x 32 = 2,048): the 5 from
  // 2,048; radix 40 (20 x 10 = 200) divides none of them.
  EXPECT_EQ(built, 11u);
}

// Sized to its endpoints (no dragonfly counts in the config), by hand: p = h = floor((k + 1) / 4), the
// fewest groups of at most 2p routers that hold E, g = ceil(E / (2p p)), and the fewest routers per group
// that hold a group's share, a = ceil(E / (g p)). The R = g a routers share the NICs floor(E/R) or
// ceil(E/R) each (none without), so a router has ceil(E/R) + (a - 1) + h <= k ports. Cables: E NIC,
// g a (a - 1) / 2 local, m = floor(a h / (g - 1)) per pair of the g (g - 1) / 2 pairs of groups. A
// dragonfly connects at most a h + 1 groups: beyond, at radix 40, 98,304 NICs do not fit.
struct SizedDragonfly {
  std::uint64_t p = 0, h = 0, g = 0, a = 0;
};

SizedDragonfly sized(std::uint64_t endpoints, std::uint64_t k) {
  SizedDragonfly d;
  d.p = d.h = (k + 1) / 4;
  d.g = ceil_div(endpoints, 2 * d.p * d.p);
  d.a = ceil_div(endpoints, d.g * d.p);
  return d;
}

TEST(DragonflySizing, SizedToItsEndpointsFromTheRadixWithNoIdleRouter) {
  std::uint32_t built = 0;
  for (const std::uint32_t radix : kRadices) {
    for (const std::uint32_t endpoints : kSizes) {
      SCOPED_TRACE(std::to_string(endpoints) + " endpoints, radix " + std::to_string(radix));
      const ClusterSpec spec = dragonfly_cluster(endpoints, radix, {});
      const SizedDragonfly d = sized(endpoints, radix);
      const std::uint64_t g = d.g, a = d.a, h = d.h;
      if (g > a * h + 1) {
        expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly.groups", "connect at most");
        continue;
      }
      const Topology t = build_topology(spec, RoutingMode::minimal);
      expect_well_formed(t);
      ++built;
      expect_dragonfly_counts(t, endpoints, g, a, h);
      // Every router has floor(E/R) or ceil(E/R) NICs, and its ports fit the radix.
      const std::uint64_t routers = g * a;
      std::vector<std::uint64_t> nics(t.nodes.size(), 0);
      for (std::uint32_t device = 0; device < t.device_count(); ++device) {
        const NodeId node = t.devices[device];
        for (PortIndex i = 0; i < t.nodes[node].port_count; ++i) {
          const Port& port = t.port(node, i);
          if (port.link_class == LinkClass::nic) ++nics[port.peer];
        }
      }
      for (NodeId n = 0; n < t.nodes.size(); ++n) {
        if (t.nodes[n].kind != NodeKind::switch_node) continue;
        ASSERT_LE(t.nodes[n].port_count, radix);
        ASSERT_GE(nics[n], endpoints / routers) << "router " << n;
        ASSERT_LE(nics[n], ceil_div(endpoints, routers)) << "router " << n;
      }
      if (endpoints <= 16'384) expect_every_switch_carries_traffic(t);
    }
  }
  // All but 98,304 NICs at radix 40 (at most 201 groups of 20 routers x 10 NICs = 40,200).
  EXPECT_EQ(built, 23u);
}

// The sizes written out (the table of docs/network.md), so that a change of the rule shows here.
TEST(DragonflySizing, GroupsAndRoutersOfTheTableInNetworkMd) {
  struct Row {
    std::uint32_t endpoints, radix;
    std::uint64_t groups, routers_per_group;
  };
  const Row rows[] = {{64, 40, 1, 7},        {64, 64, 1, 4},         {64, 128, 1, 2},      {1'024, 40, 6, 18},
                      {1'024, 64, 2, 32},    {1'024, 128, 1, 32},    {98'304, 64, 192, 32}, {98'304, 128, 48, 64},
                      {32'768, 40, 164, 20}, {16'384, 128, 8, 64}};
  for (const Row& row : rows) {
    SCOPED_TRACE(std::to_string(row.endpoints) + " endpoints, radix " + std::to_string(row.radix));
    const SizedDragonfly d = sized(row.endpoints, row.radix);
    EXPECT_EQ(d.g, row.groups);
    EXPECT_EQ(d.a, row.routers_per_group);
    EXPECT_EQ(count_topology(dragonfly_cluster(row.endpoints, row.radix, {})).switches, row.groups * row.routers_per_group);
  }
}

// Counts set in the config are kept; the NICs are spread over the routers when they do not fill them.
TEST(DragonflySizing, SetCountsKeptAndNicsSpreadOverTheRouters) {
  ClusterSpec spec = cluster(35, 2, 4);  // 70 NICs on 9 groups x 4 routers x 2 terminals = 72 ports
  spec.scale_out.kind = ScaleOutKind::dragonfly;
  spec.scale_out.switch_spec.radix = 16;
  spec.scale_out.dragonfly = {4, 2, 2, 9};
  const Topology t = build_topology(spec, RoutingMode::minimal);
  expect_well_formed(t);
  EXPECT_EQ(switches_of(t, SwitchRole::router), 36u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 70u);
  EXPECT_EQ(links_of(t, LinkClass::local), 9u * 4 * 3 / 2);
  EXPECT_EQ(links_of(t, LinkClass::global), 9u * 8 / 2);
  // 70 = 36 + 34: routers 0-33 have 2 NICs, 34 and 35 one. The last (router 3 of group 8) has 1 terminal,
  // 3 local ports and global slots 6 and 7 of the group's m (g - 1) = 8.
  EXPECT_EQ(t.nodes.back().kind, NodeKind::switch_node);
  EXPECT_EQ(t.nodes.back().port_count, 1u + 3 + 2);
  expect_every_switch_carries_traffic(t);
}

// --- Torus ----------------------------------------------------------------------------------------

// A 3D torus links devices directly: no switch. Along a dimension of size n >= 3 each device has a +
// and a - cable, E cables in all; n = 2 gives E / 2 (one neighbour), n = 1 none.
TEST(TorusSizing, NoSwitchesAndTheClosedFormOfItsCables) {
  const std::array<std::uint32_t, 3> shapes[] = {{4, 4, 4},   {8, 4, 4},    {16, 8, 8},   {16, 16, 8},
                                                 {16, 16, 16}, {32, 32, 16}, {32, 32, 32}, {64, 48, 32},
                                                 {4, 4, 2},   {8, 4, 1}};
  for (const auto& dims : shapes) {
    const std::uint64_t endpoints = std::uint64_t{dims[0]} * dims[1] * dims[2];
    SCOPED_TRACE(std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]));
    ClusterSpec spec = cluster(static_cast<std::uint32_t>(endpoints / 4), 4, 16);
    spec.nics_per_node = 0;
    spec.scale_out.kind = ScaleOutKind::torus3d;
    spec.scale_out.torus.dims = dims;
    spec.scale_out.torus.link_bandwidth = kSwitchBandwidth;
    spec.scale_out.torus.link_latency = kCableLatency;
    spec.scale_out.torus.rack_dims = {4, 4, dims[2] >= 4 ? 4u : dims[2]};
    const Topology t = build_topology(spec, RoutingMode::dimension_order);
    expect_well_formed(t);
    std::uint64_t cables = 0;
    for (const std::uint32_t n : dims) cables += n >= 3 ? endpoints : n == 2 ? endpoints / 2 : 0;
    EXPECT_EQ(t.switch_count(), 0u);
    EXPECT_EQ(t.device_count(), endpoints);
    EXPECT_EQ(links_of(t, LinkClass::torus), cables);
    EXPECT_EQ(t.link_count(), cables);
  }
}

}  // namespace
