// 3D torus: counts per dimension size (1, 2, >= 3), rack blocks, dimension-order routes.
#include <array>
#include <cstdlib>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

constexpr double kLinkBandwidth = 90e9;
constexpr SimTime kLinkLatency = 700;

ClusterSpec torus(std::array<std::uint32_t, 3> dims, std::array<std::uint32_t, 3> rack_dims) {
  ClusterSpec c = cluster(dims[0] * dims[1] * dims[2], 1, 1);
  c.nics_per_node = 0;
  c.scale_out.kind = ScaleOutKind::torus3d;
  c.scale_out.torus.dims = dims;
  c.scale_out.torus.rack_dims = rack_dims;
  c.scale_out.torus.link_bandwidth = kLinkBandwidth;
  c.scale_out.torus.link_latency = kLinkLatency;
  return c;
}

std::uint32_t ring_distance(std::uint32_t a, std::uint32_t b, std::uint32_t size) {
  const std::uint32_t ahead = (b + size - a) % size;
  return std::min(ahead, size - ahead);
}

TEST(Torus, LinkCountsFollowEachDimensionsSize) {
  struct Case {
    std::array<std::uint32_t, 3> dims;
    std::array<std::uint32_t, 3> rack_dims;
    std::size_t links;
    std::uint32_t ports;
  };
  // Per dimension of size n over N devices: n >= 3 gives N links (a ring per line), n = 2 gives N/2
  // (one cable per pair), n = 1 none. Ports per device: 2, 1, 0 per dimension.
  const Case cases[] = {
      {{4, 2, 1}, {2, 2, 1}, 8 + 4, 3},          // x ring of 4, y pairs
      {{3, 3, 3}, {3, 1, 1}, 27 * 3, 6},         // every dimension a ring of 3
      {{5, 1, 2}, {5, 1, 1}, 10 + 5, 3},         // y of size 1 has no links
      {{2, 2, 2}, {1, 1, 1}, 4 + 4 + 4, 3},      // all pairs
      {{1, 1, 1}, {1, 1, 1}, 0, 0},              // a lone device
      {{4, 4, 4}, {4, 4, 4}, 64 * 3, 6},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.dims[0] << "x" << c.dims[1] << "x" << c.dims[2]);
    const Topology t = build_topology(torus(c.dims, c.rack_dims), RoutingMode::dimension_order);
    expect_well_formed(t);
    EXPECT_EQ(t.device_count(), std::size_t{c.dims[0]} * c.dims[1] * c.dims[2]);
    EXPECT_EQ(t.switch_count(), 0u);
    EXPECT_EQ(t.link_count(), c.links);
    EXPECT_EQ(links_of(t, LinkClass::torus), c.links);
    for (const Node& node : t.nodes) EXPECT_EQ(node.port_count, c.ports);
    for (const Port& p : t.ports) {
      EXPECT_EQ(p.bandwidth, kLinkBandwidth);
      EXPECT_EQ(p.latency, kLinkLatency);
    }
  }
}

TEST(Torus, RoutesEveryPairAlongTheShorterWayOfEachRing) {
  for (const auto& dims : {std::array<std::uint32_t, 3>{4, 2, 1}, std::array<std::uint32_t, 3>{3, 3, 3},
                           std::array<std::uint32_t, 3>{5, 1, 2}, std::array<std::uint32_t, 3>{6, 4, 2}}) {
    SCOPED_TRACE(testing::Message() << dims[0] << "x" << dims[1] << "x" << dims[2]);
    const Topology t = build_topology(torus(dims, {1, 1, 1}), RoutingMode::dimension_order);
    expect_all_pairs(t, [&](std::uint32_t s, std::uint32_t d) {
      const std::uint32_t sx = s % dims[0], sy = s / dims[0] % dims[1], sz = s / dims[0] / dims[1];
      const std::uint32_t dx = d % dims[0], dy = d / dims[0] % dims[1], dz = d / dims[0] / dims[1];
      return ring_distance(sx, dx, dims[0]) + ring_distance(sy, dy, dims[1]) + ring_distance(sz, dz, dims[2]);
    });
  }
}

TEST(Torus, CorrectsXThenYThenZAndBreaksTiesPlus) {
  const std::array<std::uint32_t, 3> dims{4, 4, 4};
  const Topology t = build_topology(torus(dims, {2, 2, 2}), RoutingMode::dimension_order);
  auto index = [&](std::uint32_t x, std::uint32_t y, std::uint32_t z) { return x + 4 * (y + 4 * z); };
  // (0,0,0) -> (2,3,1): x +2 (tie: +), y -1 (3 is one step back), z +1.
  const Route r = route(t, index(0, 0, 0), index(2, 3, 1));
  std::vector<std::uint32_t> devices;
  for (const NodeId n : r.nodes) devices.push_back(t.nodes[n].device);
  EXPECT_EQ(devices, (std::vector<std::uint32_t>{index(0, 0, 0), index(1, 0, 0), index(2, 0, 0), index(2, 3, 0),
                                                 index(2, 3, 1)}));
  // Port order: x+, x-, y+, y-, z+, z-.
  const NodeId origin = t.devices[index(0, 0, 0)];
  EXPECT_EQ(t.nodes[t.port(origin, 0).peer].device, index(1, 0, 0));
  EXPECT_EQ(t.nodes[t.port(origin, 1).peer].device, index(3, 0, 0));
  EXPECT_EQ(t.nodes[t.port(origin, 2).peer].device, index(0, 1, 0));
  EXPECT_EQ(t.nodes[t.port(origin, 3).peer].device, index(0, 3, 0));
  EXPECT_EQ(t.nodes[t.port(origin, 4).peer].device, index(0, 0, 1));
  EXPECT_EQ(t.nodes[t.port(origin, 5).peer].device, index(0, 0, 3));
}

TEST(Torus, RacksAreRackDimsBlocksNumberedXFirst) {
  // 4 x 4 x 2 in blocks of 2 x 2 x 2: 2 x 2 x 1 = 4 racks of 8 devices.
  const std::array<std::uint32_t, 3> dims{4, 4, 2};
  const Topology t = build_topology(torus(dims, {2, 2, 2}), RoutingMode::dimension_order);
  expect_well_formed(t);
  ASSERT_EQ(t.racks.size(), 4u);
  for (std::uint32_t r = 0; r < 4; ++r) {
    const Rack& rack = t.racks[r];
    EXPECT_EQ(rack.kind, RackKind::compute);
    ASSERT_EQ(rack.node_count, 8u);
    for (NodeId n = rack.first_node; n < rack.first_node + rack.node_count; ++n) {
      const std::uint32_t d = t.nodes[n].device;
      const std::uint32_t x = d % 4, y = d / 4 % 4;
      EXPECT_EQ(x / 2 + 2 * (y / 2), r) << "device " << d << " in rack " << r;
    }
  }
  // Inside a rack, devices go x fastest too: rack 1 (x 2..3, y 0..1) starts with (2,0,0), (3,0,0), (2,1,0).
  EXPECT_EQ(t.nodes[8].device, 2u);
  EXPECT_EQ(t.nodes[9].device, 3u);
  EXPECT_EQ(t.nodes[10].device, 6u);
}

TEST(Torus, EveryChunkOfAMessageReachesItsDestinationOverOneCable) {
  EXPECT_EQ(expect_one_last_cable(build_topology(torus({4, 3, 2}, {1, 1, 1}), RoutingMode::dimension_order)), 0u);
}

}  // namespace
