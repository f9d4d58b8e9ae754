#pragma once
// Shared helpers of the topology tests: small cluster specs, structural invariants that every
// topology must satisfy, and walking a route hop by hop through the router.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/network/build_topology.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace topo_test {

using namespace rackscale::models::network;
using rackscale::pdes::SimTime;

// Distinct figures, so a test can tell which one ended up on a port.
inline constexpr double kNicBandwidth = 50e9;
inline constexpr double kSwitchBandwidth = 100e9;
inline constexpr SimTime kNicLatency = 1'000;
inline constexpr SimTime kCableLatency = 20'000;
inline constexpr SimTime kSwitchLatency = 300'000;
inline constexpr double kScaleUpBandwidth = 450e9;
inline constexpr SimTime kScaleUpLatency = 501;  // odd, so the NVSwitch split must not lose a picosecond

inline ClusterSpec cluster(std::uint32_t nodes, std::uint32_t devices_per_node, std::uint32_t nodes_per_rack) {
  ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = devices_per_node;
  c.nodes_per_rack = nodes_per_rack;
  c.nics_per_node = devices_per_node;
  c.nic.bandwidth = kNicBandwidth;
  c.nic.latency = kNicLatency;
  c.scale_out.switch_spec.port_bandwidth = kSwitchBandwidth;
  c.scale_out.switch_spec.latency = kSwitchLatency;
  c.scale_out.cable_latency = kCableLatency;
  c.scale_out.switches_per_rack = 4;
  return c;
}

inline ClusterSpec fat_tree(std::uint32_t nodes, std::uint32_t devices_per_node, std::uint32_t radix, std::uint32_t tiers,
                            double leaf_oversubscription = 1, double spine_oversubscription = 1) {
  ClusterSpec c = cluster(nodes, devices_per_node, 2);
  c.scale_out.kind = ScaleOutKind::fat_tree;
  c.scale_out.switch_spec.radix = radix;
  c.scale_out.fat_tree.tiers = tiers;
  c.scale_out.fat_tree.oversubscription = {leaf_oversubscription, spine_oversubscription};
  return c;
}

inline void with_scale_up(ClusterSpec& c, ScaleUpKind kind, std::uint32_t domain_devices) {
  c.scale_up.kind = kind;
  c.scale_up.domain_devices = domain_devices;
  c.scale_up.bandwidth = kScaleUpBandwidth;
  c.scale_up.latency = kScaleUpLatency;
}

inline std::size_t links_of(const Topology& t, LinkClass link_class) {
  std::size_t ports = 0;
  for (const Port& p : t.ports) ports += p.link_class == link_class ? 1 : 0;
  return ports / 2;
}

inline std::size_t switches_of(const Topology& t, SwitchRole role) {
  std::size_t n = 0;
  for (const Node& node : t.nodes) n += node.kind == NodeKind::switch_node && node.role == role ? 1 : 0;
  return n;
}

// Every port's peer points back at it with the same cable figures; racks tile the node ids in order;
// devices map to device nodes and back.
inline void expect_well_formed(const Topology& t) {
  std::uint64_t next_port = 0;
  for (NodeId n = 0; n < t.nodes.size(); ++n) {
    const Node& node = t.nodes[n];
    ASSERT_EQ(node.first_port, next_port) << "node " << n << ": ports must be contiguous, in node order";
    next_port += node.port_count;
    for (PortIndex i = 0; i < node.port_count; ++i) {
      const Port& p = t.port(n, i);
      ASSERT_LT(p.peer, t.nodes.size()) << "node " << n << " port " << i;
      ASSERT_NE(p.peer, n) << "node " << n << " port " << i << " loops back";
      ASSERT_LT(p.peer_port, t.nodes[p.peer].port_count);
      const Port& back = t.port(p.peer, p.peer_port);
      ASSERT_EQ(back.peer, n) << "node " << n << " port " << i;
      ASSERT_EQ(back.peer_port, i) << "node " << n << " port " << i;
      ASSERT_EQ(back.link_class, p.link_class);
      ASSERT_EQ(back.bandwidth, p.bandwidth);
      ASSERT_GT(p.bandwidth, 0);
    }
  }
  ASSERT_EQ(next_port, t.ports.size());

  NodeId expected_first = 0;
  for (std::uint32_t r = 0; r < t.racks.size(); ++r) {
    const Rack& rack = t.racks[r];
    ASSERT_EQ(rack.first_node, expected_first) << "rack " << r;
    ASSERT_GT(rack.node_count, 0u) << "rack " << r;
    for (NodeId n = rack.first_node; n < rack.first_node + rack.node_count; ++n) {
      ASSERT_EQ(t.nodes[n].rack, r) << "node " << n;
      if (rack.kind == RackKind::network) {
        ASSERT_EQ(t.nodes[n].kind, NodeKind::switch_node) << "node " << n;
      }
    }
    expected_first += rack.node_count;
  }
  ASSERT_EQ(expected_first, t.nodes.size()) << "racks must cover every node exactly once";

  std::size_t device_nodes = 0;
  for (const Node& node : t.nodes) device_nodes += node.kind == NodeKind::device ? 1 : 0;
  ASSERT_EQ(device_nodes, t.devices.size());
  for (std::uint32_t d = 0; d < t.devices.size(); ++d) {
    ASSERT_EQ(t.nodes[t.devices[d]].kind, NodeKind::device);
    ASSERT_EQ(t.nodes[t.devices[d]].device, d);
  }
}

struct Route {
  std::vector<NodeId> nodes;  // src, ..., dst
  std::vector<LinkClass> links;
  std::vector<PortIndex> ports;  // the port taken at each node but the last
  RouteTag start_tag;
  bool reached = false;
  [[nodiscard]] std::size_t hops() const { return links.size(); }
};

// Follows the router from device `src` to device `dst`; gives up after `max_hops` (a loop).
inline Route route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::uint64_t flow = 0,
                   std::uint64_t chunk = 0, std::size_t max_hops = 16) {
  Route r;
  const NodeId from = t.devices[src];
  const NodeId to = t.devices[dst];
  RouteTag tag = t.router->start(from, to, flow, chunk);
  r.start_tag = tag;
  r.nodes.push_back(from);
  NodeId at = from;
  while (at != to && r.links.size() < max_hops) {
    const std::uint16_t index = t.router->next_port(at, to, tag);
    if (index >= t.nodes[at].port_count) {
      ADD_FAILURE() << "router chose port " << index << " of node " << at << " which has " << t.nodes[at].port_count;
      return r;
    }
    const Port& p = t.port(at, index);
    r.links.push_back(p.link_class);
    r.ports.push_back(index);
    at = p.peer;
    r.nodes.push_back(at);
  }
  r.reached = at == to;
  return r;
}

// Routes every ordered pair of devices and checks the hop count against `expected(src, dst)`.
template <typename Expected>
void expect_all_pairs(const Topology& t, Expected expected, std::uint64_t flow = 0) {
  const auto n = static_cast<std::uint32_t>(t.device_count());
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (s == d) continue;
      const Route r = route(t, s, d, flow + s * 7919u + d);
      ASSERT_TRUE(r.reached) << "no route from device " << s << " to " << d << " within 16 hops";
      ASSERT_EQ(r.hops(), static_cast<std::size_t>(expected(s, d))) << "device " << s << " -> " << d;
    }
  }
}

// The Router's contract (router.hpp) that the chunk fabric relies on: every chunk of a message reaches its
// destination over the same cable, wherever spraying or detours take it on the way (the node before the
// destination counts the message's chunks). Checks every ordered pair with `chunks` chunk indices; returns
// how many pairs saw more than one path, so that a caller can show the routes did vary.
inline std::size_t expect_one_last_cable(const Topology& t, std::uint64_t chunks = 32, std::uint64_t flow = 5) {
  std::size_t varied = 0;
  const auto n = static_cast<std::uint32_t>(t.device_count());
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (s == d) continue;
      const Route first = route(t, s, d, flow + s, 0);
      if (!first.reached) {
        ADD_FAILURE() << "no route from device " << s << " to " << d;
        return varied;
      }
      bool differs = false;
      for (std::uint64_t chunk = 1; chunk < chunks; ++chunk) {
        const Route r = route(t, s, d, flow + s, chunk);
        if (!r.reached || r.nodes[r.nodes.size() - 2] != first.nodes[first.nodes.size() - 2] ||
            r.ports.back() != first.ports.back()) {
          ADD_FAILURE() << "device " << s << " -> " << d << ": chunk " << chunk
                        << " reaches the destination over another cable than chunk 0";
          return varied;
        }
        differs = differs || r.nodes != first.nodes;
      }
      varied += differs ? 1 : 0;
    }
  }
  return varied;
}

// Router::flow_free's contract: every pair the router calls flow-free takes the same ports under
// `flows` flows and `chunks` chunk indices each. Returns how many ordered pairs it called flow-free, so
// that a caller can check the router does say so where it should.
inline std::size_t expect_flow_free_pairs_keep_one_path(const Topology& t, std::uint64_t flows = 16,
                                                        std::uint64_t chunks = 4) {
  std::size_t flow_free = 0;
  const auto n = static_cast<std::uint32_t>(t.device_count());
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (s == d || !t.router->flow_free(t.devices[s], t.devices[d])) continue;
      ++flow_free;
      const Route first = route(t, s, d, 0, 0);
      for (std::uint64_t flow = 0; flow < flows; ++flow) {
        for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
          const Route r = route(t, s, d, flow * 0x9E3779B97F4A7C15ULL + 1, chunk);
          if (!r.reached || r.nodes != first.nodes || r.ports != first.ports) {
            ADD_FAILURE() << "device " << s << " -> " << d << " is called flow-free, but flow " << flow
                          << " chunk " << chunk << " takes another path than flow 0";
            return flow_free;
          }
        }
      }
    }
  }
  return flow_free;
}

// Router::path_key's contract over `flows` flows of every ordered pair of devices: flows of a pair with
// equal keys take the same ports (at chunk 0, as the analytical fabric routes them). The counts let a
// caller check that the keys are no finer than the routes (a key per flow would pass the contract).
struct PathKeyCounts {
  std::size_t pairs_with_more_keys_than_routes = 0;
  std::size_t most_routes = 0;  // the most distinct routes any pair's flows took
  std::size_t most_keys = 0;    // the most distinct keys any pair's flows had
};
inline PathKeyCounts expect_equal_path_keys_take_one_route(const Topology& t, std::uint64_t flows = 64) {
  PathKeyCounts counts;
  const auto n = static_cast<std::uint32_t>(t.device_count());
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (s == d) continue;
      std::map<std::uint64_t, std::vector<PortIndex>> route_of_key;
      std::set<std::vector<PortIndex>> routes;
      for (std::uint64_t i = 0; i < flows; ++i) {
        const std::uint64_t flow = i * 0x9E3779B97F4A7C15ULL + 7;
        const Route r = route(t, s, d, flow, 0);
        const std::uint64_t key = t.router->path_key(t.devices[s], t.devices[d], flow);
        const auto [at, fresh] = route_of_key.emplace(key, r.ports);
        if (!r.reached || (!fresh && at->second != r.ports)) {
          ADD_FAILURE() << "device " << s << " -> " << d << ": flow " << flow << " has the path key " << key
                        << " of an earlier flow but takes another route";
          return counts;
        }
        routes.insert(r.ports);
      }
      if (route_of_key.size() > routes.size()) ++counts.pairs_with_more_keys_than_routes;
      counts.most_routes = std::max(counts.most_routes, routes.size());
      counts.most_keys = std::max(counts.most_keys, route_of_key.size());
    }
  }
  return counts;
}

// No switch is idle: spraying chunks between a spread of endpoint pairs crosses every switch, so each
// has a cabled port that carries a route.
inline void expect_every_switch_carries_traffic(const Topology& t) {
  std::set<NodeId> crossed;
  const std::uint32_t n = static_cast<std::uint32_t>(t.device_count());
  const std::uint32_t pairs = std::min<std::uint32_t>(n, 40'000);
  for (std::uint32_t i = 0; i < pairs; ++i) {
    const std::uint32_t src = static_cast<std::uint32_t>((std::uint64_t{i} * n) / pairs);
    const std::uint32_t dst = static_cast<std::uint32_t>((std::uint64_t{src} * 7919 + n / 2 + 1) % n);
    if (src == dst) continue;
    for (std::uint64_t chunk = 0; chunk < 4; ++chunk) {
      for (const NodeId node : route(t, src, dst, i, chunk).nodes) crossed.insert(node);
    }
  }
  std::size_t idle = 0;
  for (NodeId node = 0; node < t.nodes.size(); ++node) {
    if (t.nodes[node].kind == NodeKind::switch_node && crossed.count(node) == 0) ++idle;
  }
  EXPECT_EQ(idle, 0u) << "switches that no sampled route crossed";
}

// The message of the std::invalid_argument that building `spec` throws.
inline std::string error_of(const ClusterSpec& spec, RoutingMode routing) {
  try {
    (void)build_topology(spec, routing);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// The message must start with `key` + ": " and contain `detail`.
inline void expect_error(const ClusterSpec& spec, RoutingMode routing, const std::string& key, const std::string& detail) {
  const std::string message = error_of(spec, routing);
  EXPECT_EQ(message.rfind(key + ": ", 0), 0u) << message;
  EXPECT_NE(message.find(detail), std::string::npos) << message;
}

}  // namespace topo_test
