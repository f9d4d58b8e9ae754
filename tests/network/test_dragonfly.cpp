// Dragonfly: counts, the global-link arrangement, minimal and Valiant routes.
#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "topology_checks.hpp"

namespace {

using namespace topo_test;

// a routers per group, p terminals, h global links per router, g groups; 2 devices (NICs) per node.
ClusterSpec dragonfly(std::uint32_t a, std::uint32_t p, std::uint32_t h, std::uint32_t g) {
  ClusterSpec c = cluster(g * a * p / 2, 2, 2);
  c.scale_out.kind = ScaleOutKind::dragonfly;
  c.scale_out.switch_spec.radix = p + a - 1 + h;
  c.scale_out.dragonfly = DragonflySpec{a, p, h, g};
  return c;
}

// Routers in node order are (group, router) in order: the router's ordinal / a is its group.
struct Routers {
  std::map<NodeId, std::uint32_t> ordinal;
  explicit Routers(const Topology& t) {
    for (NodeId n = 0; n < t.nodes.size(); ++n) {
      if (t.nodes[n].role == SwitchRole::router) ordinal.emplace(n, static_cast<std::uint32_t>(ordinal.size()));
    }
  }
};

// Global links per unordered pair of groups, read off the ports.
std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> global_links(const Topology& t, std::uint32_t a) {
  const Routers routers(t);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> count;
  for (NodeId n = 0; n < t.nodes.size(); ++n) {
    for (const Port& p : t.ports_of(n)) {
      if (p.link_class != LinkClass::global || p.peer < n) continue;
      const std::uint32_t g1 = routers.ordinal.at(n) / a;
      const std::uint32_t g2 = routers.ordinal.at(p.peer) / a;
      EXPECT_NE(g1, g2) << "a global link inside a group";
      ++count[{std::min(g1, g2), std::max(g1, g2)}];
    }
  }
  return count;
}

TEST(Dragonfly, MaximalDragonflyCounts) {
  // a = 4, p = 2, h = 2: at most a*h + 1 = 9 groups; 36 routers, 72 endpoints. Links: 72 NIC,
  // 9 groups x C(4,2) = 54 local, C(9,2) = 36 global (one per pair: 9*8 = 72 global ports / 2).
  const Topology t = build_topology(dragonfly(4, 2, 2, 9), RoutingMode::minimal);
  expect_well_formed(t);
  EXPECT_EQ(t.device_count(), 72u);
  EXPECT_EQ(switches_of(t, SwitchRole::router), 36u);
  EXPECT_EQ(links_of(t, LinkClass::nic), 72u);
  EXPECT_EQ(links_of(t, LinkClass::local), 54u);
  EXPECT_EQ(links_of(t, LinkClass::global), 36u);
  for (const Node& node : t.nodes) {
    if (node.role == SwitchRole::router) {
      EXPECT_EQ(node.port_count, 7u);
    }
  }
  const auto pairs = global_links(t, 4);
  EXPECT_EQ(pairs.size(), 36u);
  for (const auto& [pair, links] : pairs) EXPECT_EQ(links, 1u) << pair.first << "-" << pair.second;
}

TEST(Dragonfly, SmallerDragonfliesDoubleUpGlobalLinks) {
  {
    // g = 5: m = floor(8 / 4) = 2 links per pair, every global port used: 10 pairs x 2 = 20.
    const Topology t = build_topology(dragonfly(4, 2, 2, 5), RoutingMode::minimal);
    expect_well_formed(t);
    EXPECT_EQ(links_of(t, LinkClass::global), 20u);
    const auto pairs = global_links(t, 4);
    EXPECT_EQ(pairs.size(), 10u);
    for (const auto& [pair, links] : pairs) EXPECT_EQ(links, 2u);
  }
  {
    // g = 4: m = floor(8 / 3) = 2, 6 of 8 global ports used per group (the last router's 2 stay free):
    // 6 pairs x 2 = 12 links; router port counts 7, 7, 7, 5.
    const Topology t = build_topology(dragonfly(4, 2, 2, 4), RoutingMode::minimal);
    expect_well_formed(t);
    EXPECT_EQ(links_of(t, LinkClass::global), 12u);
    const auto pairs = global_links(t, 4);
    EXPECT_EQ(pairs.size(), 6u);
    for (const auto& [pair, links] : pairs) EXPECT_EQ(links, 2u);
    std::vector<std::uint32_t> ports;
    for (const Node& node : t.nodes) {
      if (node.role == SwitchRole::router && ports.size() < 4) ports.push_back(node.port_count);
    }
    EXPECT_EQ(ports, (std::vector<std::uint32_t>{7, 7, 7, 5}));
  }
  {
    // A single group: no global links at all.
    const Topology t = build_topology(dragonfly(4, 2, 2, 1), RoutingMode::minimal);
    expect_well_formed(t);
    EXPECT_EQ(links_of(t, LinkClass::global), 0u);
    expect_all_pairs(t, [](std::uint32_t s, std::uint32_t d) { return s / 2 == d / 2 ? 2 : 3; });
  }
}

TEST(Dragonfly, MinimalRoutesTakeOneGlobalHopAndLocalHopsOnlyWhereNeeded) {
  const std::uint32_t a = 4;
  const std::uint32_t p = 2;
  const Topology t = build_topology(dragonfly(a, p, 2, 9), RoutingMode::minimal);
  const Routers routers(t);
  // With one link per pair: which router of each group holds the link to each other group.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> holder;  // (from group, to group) -> router ordinal
  for (NodeId n = 0; n < t.nodes.size(); ++n) {
    for (const Port& port : t.ports_of(n)) {
      if (port.link_class != LinkClass::global) continue;
      holder[{routers.ordinal.at(n) / a, routers.ordinal.at(port.peer) / a}] = routers.ordinal.at(n);
    }
  }
  expect_all_pairs(t, [&](std::uint32_t s, std::uint32_t d) {
    const std::uint32_t rs = s / p;
    const std::uint32_t rd = d / p;
    if (rs == rd) return 2;
    if (rs / a == rd / a) return 3;
    const std::uint32_t out = holder.at({rs / a, rd / a});
    const std::uint32_t in = holder.at({rd / a, rs / a});
    return 3 + (rs != out ? 1 : 0) + (in != rd ? 1 : 0);
  });
}

TEST(Dragonfly, MinimalKeepsAFlowOnOnePathAndSprayUsesEveryParallelLink) {
  // g = 4 has 2 links per pair of groups; a group has 4 routers x 2 = 8 endpoints, so device 0 is in
  // group 0 and device 30 in group 3.
  const Topology minimal = build_topology(dragonfly(4, 2, 2, 4), RoutingMode::minimal);
  const Topology spray = build_topology(dragonfly(4, 2, 2, 4), RoutingMode::spray);
  std::set<NodeId> flows_first_global;
  std::set<NodeId> chunks_first_global;
  auto global_hop = [](const Route& r) {
    for (std::size_t i = 0; i < r.links.size(); ++i) {
      if (r.links[i] == LinkClass::global) return r.nodes[i];
    }
    return kNoNode;
  };
  for (std::uint64_t k = 0; k < 100; ++k) {
    const Route by_flow = route(minimal, 0, 30, k, 0);
    ASSERT_TRUE(by_flow.reached);
    EXPECT_EQ(route(minimal, 0, 30, k, 5).nodes, by_flow.nodes);
    flows_first_global.insert(global_hop(by_flow));
    const Route by_chunk = route(spray, 0, 30, 7, k);
    ASSERT_TRUE(by_chunk.reached);
    chunks_first_global.insert(global_hop(by_chunk));
  }
  EXPECT_EQ(flows_first_global.size(), 2u);
  EXPECT_EQ(chunks_first_global.size(), 2u);
}

TEST(Dragonfly, ValiantDetoursThroughItsIntermediateGroup) {
  const std::uint32_t a = 4;
  const std::uint32_t p = 2;
  const Topology t = build_topology(dragonfly(a, p, 2, 9), RoutingMode::valiant);
  expect_well_formed(t);
  const Routers routers(t);
  std::set<std::uint32_t> vias;
  for (std::uint32_t s = 0; s < 72; s += 5) {
    for (std::uint32_t d = 0; d < 72; ++d) {
      if (s == d) continue;
      for (std::uint64_t chunk = 0; chunk < 3; ++chunk) {
        const Route r = route(t, s, d, 1, chunk);
        ASSERT_TRUE(r.reached) << s << " -> " << d;
        std::size_t globals = 0;
        for (const LinkClass c : r.links) globals += c == LinkClass::global ? 1 : 0;
        const std::uint32_t gs = s / (a * p);
        const std::uint32_t gd = d / (a * p);
        if (gs == gd) {
          EXPECT_EQ(r.start_tag.via, 0xFFFF'FFFFu);
          EXPECT_EQ(globals, 0u);
          continue;
        }
        const std::uint32_t via = r.start_tag.via;
        ASSERT_LT(via, 9u);
        EXPECT_NE(via, gs);
        EXPECT_NE(via, gd);
        vias.insert(via);
        EXPECT_EQ(globals, 2u);
        EXPECT_LE(r.hops(), 2u + 5u);  // nic, local?, global, local?, global, local?, nic
        bool visited = false;
        for (const NodeId n : r.nodes) {
          if (t.nodes[n].role == SwitchRole::router && routers.ordinal.at(n) / a == via) visited = true;
        }
        EXPECT_TRUE(visited) << s << " -> " << d << " via " << via;
      }
    }
  }
  EXPECT_EQ(vias.size(), 9u);
}

TEST(Dragonfly, EachGroupStartsANetworkRack) {
  ClusterSpec spec = dragonfly(4, 2, 2, 9);
  spec.scale_out.switches_per_rack = 3;
  const Topology t = build_topology(spec, RoutingMode::minimal);
  expect_well_formed(t);
  // 36 nodes of 2 devices in racks of 2 nodes: 18 compute racks; each group's 4 routers: 3 + 1.
  ASSERT_EQ(t.racks.size(), 18u + 9 * 2);
  for (std::size_t r = 18; r < t.racks.size(); ++r) {
    EXPECT_EQ(t.racks[r].kind, RackKind::network);
    EXPECT_EQ(t.racks[r].node_count, (r - 18) % 2 == 0 ? 3u : 1u);
  }
}

// Valiant detours each chunk through its own intermediate group and spraying picks each chunk's global
// cable, but the last hop is the destination router's terminal cable for all of them.
TEST(Dragonfly, EveryChunkOfAMessageReachesItsDestinationOverOneCable) {
  EXPECT_GT(expect_one_last_cable(build_topology(dragonfly(4, 2, 2, 5), RoutingMode::valiant)), 0u);
  EXPECT_GT(expect_one_last_cable(build_topology(dragonfly(4, 2, 2, 5), RoutingMode::spray)), 0u);
  EXPECT_EQ(expect_one_last_cable(build_topology(dragonfly(4, 2, 2, 5), RoutingMode::minimal)), 0u);
}

}  // namespace
