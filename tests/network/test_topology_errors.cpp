// Impossible specs: each error starts with the config key at fault and says what was expected.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

ClusterSpec dragonfly_spec() {
  ClusterSpec c = cluster(36, 2, 2);
  c.scale_out.kind = ScaleOutKind::dragonfly;
  c.scale_out.switch_spec.radix = 7;
  c.scale_out.dragonfly = DragonflySpec{4, 2, 2, 9};
  return c;
}

ClusterSpec torus_spec() {
  ClusterSpec c = cluster(64, 1, 1);
  c.scale_out.kind = ScaleOutKind::torus3d;
  c.scale_out.torus.dims = {4, 4, 4};
  c.scale_out.torus.rack_dims = {2, 2, 2};
  c.scale_out.torus.link_bandwidth = 1e9;
  return c;
}

TEST(TopologyErrors, FatTreeTooSmallForTheCluster) {
  EXPECT_EQ(error_of(fat_tree(512, 8, 64, 2), RoutingMode::ecmp),
            "cluster.scale_out.fat_tree.tiers: a 2-tier fat tree with 64-port spines holds at most 64 leaves of 32 "
            "NICs (2048 NICs) at oversubscription 1:1; got 4096 (use tiers: 3, a larger radix or more "
            "oversubscription)");
  // k = 8 at 1:1 / 1:1 holds k^3/4 = 128.
  EXPECT_EQ(error_of(fat_tree(129, 1, 8, 3), RoutingMode::ecmp),
            "cluster.scale_out.fat_tree.tiers: a 3-tier fat tree with 8-port cores holds at most 128 NICs (8 pods of "
            "4 leaves) at oversubscription 1:1 / 1:1; got 129 NICs in 9 pods (use a larger radix, larger pods or more "
            "oversubscription)");
  // The lead's 100k NVL72 cluster does not fit radix 64 even at 3:1 at the spines: 64 x 48 x 32 = 98,304.
  ClusterSpec nvl72 = fat_tree(1'389 * 18, 4, 64, 3, 1, 3);
  nvl72.nodes_per_rack = 18;
  expect_error(nvl72, RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers", "holds at most 98304 NICs");
  // Left to choose, the builder takes three tiers; the cluster is still too large for them.
  nvl72.scale_out.fat_tree.tiers = 0;
  expect_error(nvl72, RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers", "holds at most 98304 NICs");
  // Tiers that would leave a switch with nothing to carry.
  expect_error(fat_tree(4, 1, 8, 2), RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
               "the 4 NICs fit one leaf: a spine above it would carry nothing");
  expect_error(fat_tree(16, 1, 8, 3), RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
               "the 4 leaves fit one pod of 4: cores above it would carry nothing");
  expect_error(fat_tree(9, 1, 8, 1), RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
               "one 8-port switch holds at most 8 NICs; got 9");
}

TEST(TopologyErrors, FatTreeFields) {
  expect_error(fat_tree(8, 1, 8, 4), RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
               "expected 1, 2 or 3 (or leave it out: the fewest that fit); got 4");
  expect_error(fat_tree(8, 1, 0, 2), RoutingMode::ecmp, "cluster.scale_out.switch.radix", "got 0");
  expect_error(fat_tree(8, 1, 8, 2, 0), RoutingMode::ecmp, "cluster.scale_out.fat_tree.oversubscription",
               "must be a positive number; got 0");
  expect_error(fat_tree(16, 1, 8, 2, 0.1), RoutingMode::ecmp, "cluster.scale_out.fat_tree.oversubscription",
               "0.1:1 at the leaves of 8-port switches leaves no port down: one port needs 10 up");
  expect_error(fat_tree(64, 1, 8, 3, 1, 0.01), RoutingMode::ecmp, "cluster.scale_out.fat_tree.oversubscription",
               "0.01:1 at the spines of 8-port switches leaves no port down: one port needs 100 up");
  ClusterSpec pods = fat_tree(64, 1, 8, 3);
  pods.scale_out.fat_tree.pod_endpoints = 6;
  expect_error(pods, RoutingMode::ecmp, "cluster.scale_out.fat_tree.pod_endpoints",
               "a pod is made of whole leaves of 4 NICs each; 6 is not a multiple of 4");
  pods.scale_out.fat_tree.pod_endpoints = 20;
  expect_error(pods, RoutingMode::ecmp, "cluster.scale_out.fat_tree.pod_endpoints",
               "a pod of 5 leaves needs spines with a port for each leaf and uplinks at 1:1; a spine of 8 ports serves at "
               "most 4 leaves");
  pods.scale_out.fat_tree.pod_endpoints = 8;
  pods.scale_out.fat_tree.leaves_per_pod = 3;
  expect_error(pods, RoutingMode::ecmp, "cluster.scale_out.fat_tree.leaves_per_pod",
               "3 leaves per pod disagree with pod_endpoints 8 (2 leaves of 4 NICs)");
  pods.scale_out.fat_tree.tiers = 2;
  expect_error(pods, RoutingMode::ecmp, "cluster.scale_out.fat_tree.pod_endpoints", "pods exist only in a 3-tier tree");
  ClusterSpec per_leaf = fat_tree(64, 1, 8, 0);
  per_leaf.scale_out.fat_tree.endpoints_per_leaf = 5;
  expect_error(per_leaf, RoutingMode::ecmp, "cluster.scale_out.fat_tree.endpoints_per_leaf",
               "a leaf of 8 ports at oversubscription 1:1 has room for 1 to 4 NICs (and their uplinks); got 5");
  ClusterSpec no_nics = fat_tree(8, 2, 8, 2);
  no_nics.nics_per_node = 0;
  expect_error(no_nics, RoutingMode::ecmp, "cluster.nics_per_node", "expected 2 (devices_per_node); got 0");
  ClusterSpec slow_nic = fat_tree(8, 1, 8, 2);
  slow_nic.nic.bandwidth = 0;
  expect_error(slow_nic, RoutingMode::ecmp, "cluster.nic.bandwidth", "got 0");
  ClusterSpec slow_switch = fat_tree(8, 1, 8, 2);
  slow_switch.scale_out.switch_spec.port_bandwidth = -1;
  expect_error(slow_switch, RoutingMode::ecmp, "cluster.scale_out.switch.port_bandwidth", "got -1");
  ClusterSpec no_racks = fat_tree(8, 1, 8, 2);
  no_racks.scale_out.switches_per_rack = 0;
  expect_error(no_racks, RoutingMode::ecmp, "cluster.scale_out.switches_per_rack", "got 0");
}

TEST(TopologyErrors, RailFatTree) {
  ClusterSpec spec = fat_tree(8, 4, 8, 2);
  spec.scale_out.kind = ScaleOutKind::rail_fat_tree;
  spec.scale_out.fat_tree.nodes_per_rail_group = 5;
  expect_error(spec, RoutingMode::ecmp, "cluster.scale_out.fat_tree.nodes_per_rail_group", "got 5");
  // Radix 8: 8 / 4 rails = 2 groups of 2 nodes at most; 8 nodes need 4.
  spec.scale_out.fat_tree.nodes_per_rail_group = 2;
  expect_error(spec, RoutingMode::ecmp, "cluster.scale_out.fat_tree.tiers",
               "holds at most 2 rail groups of 2 nodes with 4 NICs each (4 nodes); got 8 nodes");
  // 3 tiers with 16 rails on radix 8: a pod cannot hold one rail group.
  ClusterSpec wide = fat_tree(4, 16, 8, 3);
  wide.scale_out.kind = ScaleOutKind::rail_fat_tree;
  wide.scale_out.fat_tree.nodes_per_rail_group = 2;
  expect_error(wide, RoutingMode::ecmp, "cluster.scale_out.fat_tree.oversubscription", "whole rail groups (16 leaves each)");
}

TEST(TopologyErrors, ClusterAndScaleUp) {
  expect_error(fat_tree(0, 1, 8, 2), RoutingMode::ecmp, "cluster.nodes", "expected at least 1; got 0");
  expect_error(fat_tree(8, 0, 8, 2), RoutingMode::ecmp, "cluster.devices_per_node", "got 0");
  ClusterSpec no_rack = fat_tree(8, 1, 8, 2);
  no_rack.nodes_per_rack = 0;
  expect_error(no_rack, RoutingMode::ecmp, "cluster.nodes_per_rack", "got 0");
  ClusterSpec odd_nics = fat_tree(8, 8, 8, 2);
  odd_nics.nics_per_node = 3;
  expect_error(odd_nics, RoutingMode::ecmp, "cluster.nics_per_node", "expected 0 or 8 (devices_per_node); got 3");
  expect_error(fat_tree(1u << 28, 8, 64, 3), RoutingMode::ecmp, "cluster.nodes", "at most 1073741824 devices");

  ClusterSpec spans = fat_tree(8, 4, 8, 2);  // racks of 2 nodes x 4 = 8 devices
  with_scale_up(spans, ScaleUpKind::nvswitch, 72);
  expect_error(spans, RoutingMode::ecmp, "cluster.scale_up.domain_devices",
               "(nodes_per_rack x devices_per_node = 2 x 4 = 8) must be a multiple of domain_devices; got 72");
  ClusterSpec partial = fat_tree(20, 4, 144, 2);
  partial.nodes_per_rack = 18;
  with_scale_up(partial, ScaleUpKind::nvswitch, 72);
  expect_error(partial, RoutingMode::ecmp, "cluster.nodes",
               "(nodes x devices_per_node = 20 x 4 = 80) must fill whole scale-up domains of 72 devices; 8 are left over");
  ClusterSpec tiny = fat_tree(8, 4, 8, 2);
  with_scale_up(tiny, ScaleUpKind::mesh, 1);
  expect_error(tiny, RoutingMode::ecmp, "cluster.scale_up.domain_devices", "a mesh domain needs 2 to 65534 devices; got 1");
  ClusterSpec no_bandwidth = fat_tree(8, 4, 8, 2);
  with_scale_up(no_bandwidth, ScaleUpKind::nvswitch, 4);
  no_bandwidth.scale_up.bandwidth = 0;
  expect_error(no_bandwidth, RoutingMode::ecmp, "cluster.scale_up.bandwidth", "got 0");
  ClusterSpec no_scale_out = cluster(2, 8, 2);
  with_scale_up(no_scale_out, ScaleUpKind::nvswitch, 8);
  expect_error(no_scale_out, RoutingMode::ecmp, "cluster.scale_out.topology",
               "every device must be in one scale-up domain; got 16 devices and NVSwitch domains of 8 devices");
}

TEST(TopologyErrors, Dragonfly) {
  ClusterSpec spec = dragonfly_spec();
  spec.scale_out.dragonfly.groups = 10;
  spec.nodes = 40;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly.groups",
               "4 routers per group with 2 global links each connect at most a*h+1 = 9 groups (72 NICs at 2 terminals "
               "per router); got 10");
  spec = dragonfly_spec();
  spec.nodes = 37;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly",
               "groups x routers_per_group x terminals_per_router = 9 x 4 x 2 = 72 terminals hold fewer than "
               "cluster.nodes x cluster.nics_per_node = 37 x 2 = 74 NICs");
  spec = dragonfly_spec();
  spec.nodes = 17;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly",
               "groups x routers_per_group = 9 x 4 = 36 routers for 34 NICs: a router would have no terminal");
  spec = dragonfly_spec();
  spec.scale_out.switch_spec.radix = 6;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.switch.radix",
               "needs terminals + local + global = 2 + 3 + 2 = 7 ports");
  // Sized to its endpoints (no counts set): a radix of 2 leaves no terminal; 98,304 NICs on radix 40 need 492
  // groups where 20 routers of 10 global links connect 201.
  spec = dragonfly_spec();
  spec.scale_out.dragonfly = {};
  spec.scale_out.switch_spec.radix = 2;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.switch.radix", "at least 3 ports");
  spec = dragonfly_spec();
  spec.scale_out.dragonfly = {};
  spec.scale_out.switch_spec.radix = 40;
  spec.nodes = 49'152;
  expect_error(spec, RoutingMode::minimal, "cluster.scale_out.dragonfly.groups",
               "20 routers per group with 10 global links each connect at most a*h+1 = 201 groups (40200 NICs at 10 "
               "terminals per router); got 492");
}

TEST(TopologyErrors, Torus) {
  ClusterSpec spec = torus_spec();
  spec.scale_out.torus.dims = {4, 4, 3};
  expect_error(spec, RoutingMode::dimension_order, "cluster.scale_out.torus.dims",
               "x*y*z = 4 x 4 x 3 = 48 must equal the device count (nodes x devices_per_node = 64 x 1 = 64)");
  spec = torus_spec();
  spec.scale_out.torus.rack_dims = {4, 3, 1};
  expect_error(spec, RoutingMode::dimension_order, "cluster.scale_out.torus.rack_dims", "got 4 x 3 x 1");
  spec.scale_out.torus.rack_dims = {0, 1, 1};
  expect_error(spec, RoutingMode::dimension_order, "cluster.scale_out.torus.rack_dims", "got 0 x 1 x 1");
  spec = torus_spec();
  spec.scale_out.torus.link_bandwidth = 0;
  expect_error(spec, RoutingMode::dimension_order, "cluster.scale_out.torus.link_bandwidth", "got 0");
  spec = torus_spec();
  with_scale_up(spec, ScaleUpKind::nvswitch, 4);
  expect_error(spec, RoutingMode::dimension_order, "cluster.scale_up.kind", "expected none; got nvswitch");
}

TEST(TopologyErrors, RoutingModesThatDoNotApply) {
  EXPECT_EQ(error_of(fat_tree(8, 1, 8, 2), RoutingMode::valiant),
            "network.routing: valiant does not apply to a fat tree; use ecmp or spray");
  ClusterSpec rail = fat_tree(8, 1, 8, 2);
  rail.scale_out.kind = ScaleOutKind::rail_fat_tree;
  rail.scale_out.fat_tree.nodes_per_rail_group = 4;
  EXPECT_EQ(error_of(rail, RoutingMode::dimension_order),
            "network.routing: dimension_order does not apply to a rail fat tree; use ecmp or spray");
  EXPECT_EQ(error_of(dragonfly_spec(), RoutingMode::ecmp),
            "network.routing: ecmp does not apply to a dragonfly; use minimal, valiant or spray");
  EXPECT_EQ(error_of(torus_spec(), RoutingMode::spray),
            "network.routing: spray does not apply to a torus3d; use dimension_order");
  // Each of them builds with a mode that applies.
  EXPECT_NO_THROW((void)build_topology(rail, RoutingMode::spray));
  EXPECT_NO_THROW((void)build_topology(dragonfly_spec(), RoutingMode::valiant));
  EXPECT_NO_THROW((void)build_topology(torus_spec(), RoutingMode::dimension_order));
}

}  // namespace
