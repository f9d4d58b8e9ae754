// The analytical fabric's table of flow paths (network/flow_path_cache.hpp) against walking the router
// hop by hop: the same ports, latency and bottleneck on a miss and on a hit, for every ordered pair of
// devices and many flows (enough that entries are replaced), and no entry for paths longer than it keeps.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "models/network/degraded_links.hpp"
#include "models/network/flow_path_cache.hpp"
#include "models/network/output_port.hpp"
#include "topology_checks.hpp"

namespace {
using namespace topo_test;

// Walks `t` with its router and compares with both look-ups of the cache; returns the longest path seen.
std::size_t expect_cache_walks_the_router(const Topology& t, std::uint64_t flows) {
  FlowPathCache cache(t);
  std::size_t longest = 0;
  const auto n = static_cast<std::uint32_t>(t.device_count());
  for (std::uint64_t flow = 0; flow < flows; ++flow) {
    for (std::uint32_t s = 0; s < n; ++s) {
      for (std::uint32_t d = 0; d < n; ++d) {
        if (s == d) continue;
        const std::uint64_t label = (flow << 32) | (s * 31u + d);
        const Route r = route(t, s, d, label);
        EXPECT_TRUE(r.reached);
        longest = std::max(longest, r.hops());
        SimTime latency = 0;
        double bottleneck = std::numeric_limits<double>::infinity();
        for (std::size_t h = 0; h < r.hops(); ++h) {
          const Port& p = t.port(r.nodes[h], r.ports[h]);
          latency += p.latency;
          bottleneck = std::min(bottleneck, p.bandwidth);
        }
        for (int lookup = 0; lookup < 2; ++lookup) {  // a miss, then (unless replaced) a hit
          const FlowPathCache::Path* path = cache.find(t.devices[s], t.devices[d], label);
          if (r.hops() > FlowPathCache::kMaxHops) {
            EXPECT_EQ(path, nullptr) << s << " -> " << d;
            continue;
          }
          if (path == nullptr || path->hops != r.hops()) {
            ADD_FAILURE() << s << " -> " << d << ": " << (path == nullptr ? 0 : path->hops) << " hops kept, the router takes "
                          << r.hops();
            continue;
          }
          for (std::size_t h = 0; h < r.hops(); ++h)
            EXPECT_EQ(path->ports[h], t.port_id(r.nodes[h], r.ports[h])) << s << " -> " << d << " hop " << h;
          EXPECT_EQ(path->latency, latency);
          EXPECT_EQ(path->bottleneck, bottleneck);
        }
      }
    }
  }
  return longest;
}

TEST(FlowPathCache, FatTreePathsAreTheRoutersOnAMissAndOnAHit) {
  ClusterSpec c = fat_tree(16, 4, 8, 3);
  with_scale_up(c, ScaleUpKind::nvswitch, 4);
  const Topology t = build_topology(c, RoutingMode::ecmp);
  // 64 devices, 4,032 ordered pairs, 3 flows each: 12,096 keys in 4,096 entries, so entries are replaced.
  EXPECT_EQ(expect_cache_walks_the_router(t, 3), 6u);

  // One pair, more flows than entries: flows of the pair share entries, and their ECMP paths differ.
  FlowPathCache cache(t);
  const std::uint32_t src = 0, dst = 63;
  std::size_t differ = 0;
  for (std::uint64_t flow = 0; flow < 10'000; ++flow) {
    const Route r = route(t, src, dst, flow);
    const FlowPathCache::Path* path = cache.find(t.devices[src], t.devices[dst], flow);
    ASSERT_NE(path, nullptr);
    ASSERT_EQ(path->hops, r.hops());
    for (std::size_t h = 0; h < r.hops(); ++h) ASSERT_EQ(path->ports[h], t.port_id(r.nodes[h], r.ports[h])) << flow;
    if (path->ports != cache.find(t.devices[src], t.devices[dst], flow + 1)->ports) ++differ;
  }
  EXPECT_GT(differ, 1'000u);  // the flows do spread over the spines and cores
}

// The fat tree's routing with a path key per flow (Router's default): for the tests of the table's
// sets under many keys, which the fat tree's own path keys would fold into the few routes of a pair.
class KeyPerFlow final : public Router {
 public:
  explicit KeyPerFlow(std::unique_ptr<Router> routing) : routing_(std::move(routing)) {}
  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override {
    return routing_->start(src, dst, flow, chunk);
  }
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override {
    return routing_->next_port(at, dst, tag);
  }
  [[nodiscard]] std::string_view name() const override { return routing_->name(); }

 private:
  std::unique_ptr<Router> routing_;
};

// A ring's flows come round in turn: every device sends on each of its flows to its neighbour once a
// step. With 32 flows per device on 64 devices (2,048 keys, half the table's 4,096 entries) the
// direct-mapped table re-walked the route of every key that shared its entry: 2,856 of the 8,192 look-ups
// of four rounds after the first (measured with a counter added to it, for neighbours d + 1); two ways
// walked 1,908. The neighbour is now the next node's device (d + 4), under another leaf, so that no pair
// is flow-free and every flow keeps an entry of its own: two ways walk 2,052 of these keys' look-ups.
// By Poisson sets (a mean of one key per set of two, of two keys per entry direct-mapped), the keys
// that thrash are 1 - 2/e = 26 % with two ways and 1 - e^-1/2 = 39 % direct-mapped; the bound is between.
// The routing keeps a key per flow (KeyPerFlow), as a ring's channels between two leaves may.
TEST(FlowPathCache, FlowsThatComeRoundInTurnMostlyHit) {
  ClusterSpec c = fat_tree(16, 4, 8, 3);
  with_scale_up(c, ScaleUpKind::nvswitch, 4);
  Topology t = build_topology(c, RoutingMode::ecmp);
  t.router = std::make_unique<KeyPerFlow>(std::move(t.router));
  const auto n = static_cast<std::uint32_t>(t.device_count());
  FlowPathCache cache(t);
  const auto round = [&] {
    for (std::uint64_t flow = 0; flow < 32; ++flow)
      for (std::uint32_t d = 0; d < n; ++d) (void)cache.find(t.devices[d], t.devices[(d + 4) % n], (flow << 32) | 7);
  };
  round();
  EXPECT_EQ(cache.walks(), 32u * n);  // the first round walks every route
  const std::uint64_t before = cache.walks();
  for (int r = 0; r < 4; ++r) round();
  const std::uint64_t lookups = 4 * 32 * n;
  EXPECT_LT(cache.walks() - before, lookups * 3 / 10) << (cache.walks() - before) << " of " << lookups << " walked";
}

// Pairs whose every flow takes one path (Router::flow_free: one leaf, one scale-up domain) keep one entry
// whatever their flows: a pipeline's transfers, each with a flow of its own, walk the route once per pair.
// The pair under two leaves walks once per path key (Router::path_key), that is once per route its flows
// take, counted here by walking them.
TEST(FlowPathCache, FlowFreePairsWalkOncePerPair) {
  ClusterSpec c = fat_tree(16, 4, 8, 3);  // a node of 4 devices per leaf, in one NVSwitch domain
  with_scale_up(c, ScaleUpKind::nvswitch, 4);
  const Topology t = build_topology(c, RoutingMode::ecmp);
  FlowPathCache cache(t);
  const std::uint32_t src = 0, same_node = 3, other_leaf = 63;
  std::set<std::vector<PortIndex>> other_leaf_routes;
  for (std::uint64_t flow = 0; flow < 100; ++flow) {
    const std::uint64_t label = (flow << 32) | (flow * 977);
    for (const std::uint32_t dst : {same_node, other_leaf}) {
      const Route r = route(t, src, dst, label);
      if (dst == other_leaf) other_leaf_routes.insert(r.ports);
      const FlowPathCache::Path* path = cache.find(t.devices[src], t.devices[dst], label);
      ASSERT_NE(path, nullptr);
      ASSERT_EQ(path->hops, r.hops());
      for (std::size_t h = 0; h < r.hops(); ++h) ASSERT_EQ(path->ports[h], t.port_id(r.nodes[h], r.ports[h])) << flow;
    }
  }
  EXPECT_GT(other_leaf_routes.size(), 1u);
  EXPECT_EQ(cache.walks(), 1u + other_leaf_routes.size());
}

TEST(FlowPathCache, DragonflyDetoursAreTheRouters) {
  ClusterSpec c = cluster(9 * 4 * 2 / 2, 2, 2);
  c.scale_out.kind = ScaleOutKind::dragonfly;
  c.scale_out.switch_spec.radix = 2 + 4 - 1 + 2;
  c.scale_out.dragonfly = DragonflySpec{4, 2, 2, 9};
  const Topology t = build_topology(c, RoutingMode::valiant);
  EXPECT_EQ(expect_cache_walks_the_router(t, 2), 7u);  // device, local, global, local, global, local, device
}

// A 6 x 6 x 6 torus routes up to 3 + 3 + 3 hops in dimension order: the longer paths are not kept.
TEST(FlowPathCache, TorusPathsLongerThanItKeepsAreWalked) {
  ClusterSpec c = cluster(6 * 6 * 6, 1, 1);
  c.nics_per_node = 0;
  c.scale_out.kind = ScaleOutKind::torus3d;
  c.scale_out.torus.dims = {6, 6, 6};
  c.scale_out.torus.rack_dims = {2, 2, 2};
  c.scale_out.torus.link_bandwidth = kNicBandwidth;
  c.scale_out.torus.link_latency = kCableLatency;
  const Topology t = build_topology(c, RoutingMode::dimension_order);
  EXPECT_EQ(expect_cache_walks_the_router(t, 1), 9u);
}

// find_sized: each hop's serialization time for the size asked, worked out again whenever the size
// changes between two look-ups of an entry, and the largest of them the serialization at the bottleneck.
// Some cables degraded, so that the hops of a path differ in bandwidth and the bottleneck is not the first.
TEST(FlowPathCache, SizedPathsSerializeEachHopAtItsPortsBandwidth) {
  ClusterSpec c = fat_tree(16, 4, 8, 3);
  with_scale_up(c, ScaleUpKind::nvswitch, 4);
  Topology t = build_topology(c, RoutingMode::ecmp);
  std::vector<DegradedLink> degraded;
  for (std::uint32_t port = 0; port < t.ports.size(); port += 7) degraded.push_back({port, 0.3 + 0.1 * (port % 5)});
  degrade_links(t, degraded);
  FlowPathCache cache(t);
  const auto n = static_cast<std::uint32_t>(t.device_count());
  const std::array<std::uint64_t, 4> sizes{1, 4'097, (1u << 20) + 3, 1};
  std::size_t bottleneck_not_first = 0;
  for (std::size_t round = 0; round < 2 * sizes.size(); ++round) {
    const std::uint64_t bytes = sizes[round % sizes.size()];
    for (std::uint32_t s = 0; s < n; ++s) {
      for (std::uint32_t d = 0; d < n; ++d) {
        if (s == d) continue;
        const FlowPathCache::Path* path = cache.find_sized(t.devices[s], t.devices[d], s + d, bytes);
        ASSERT_NE(path, nullptr);
        ASSERT_EQ(path->sized_bytes, bytes);
        for (std::uint32_t h = 0; h < path->hops; ++h)
          ASSERT_EQ(path->serialize[h], serialization_time(bytes, t.ports[path->ports[h]].bandwidth))
              << s << " -> " << d << " hop " << h << ", " << bytes << " bytes";
        ASSERT_EQ(FlowPathCache::max_serialize(*path), serialization_time(bytes, path->bottleneck)) << s << " -> " << d;
        if (t.ports[path->ports[0]].bandwidth != path->bottleneck) ++bottleneck_not_first;
      }
    }
  }
  EXPECT_GT(bottleneck_not_first, 0u);  // the degraded cables do make the hops differ
}

}  // namespace
