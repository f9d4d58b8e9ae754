#pragma once
// Small topologies built by hand for tests: every node its own rack, cables with chosen figures, and
// routers for a line and a star.
#include <cstdint>
#include <deque>
#include <string_view>
#include <utility>
#include <vector>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::testing {

namespace net = rackscale::models::network;

struct Cable {
  net::NodeId a, b;
  double bandwidth;
  rackscale::pdes::SimTime latency;
};

// Builds a topology from cables; every node is its own rack. Nodes listed in `devices` are devices.
inline net::Topology make_topology(std::uint32_t nodes, const std::vector<net::NodeId>& devices, const std::vector<Cable>& cables) {
  net::Topology t;
  t.nodes.resize(nodes);
  std::vector<std::vector<std::pair<net::Port, std::size_t>>> per_node(nodes);
  for (std::size_t c = 0; c < cables.size(); ++c) {
    const Cable& cable = cables[c];
    per_node[cable.a].push_back({{cable.b, 0, net::LinkClass::nic, cable.bandwidth, cable.latency}, c});
    per_node[cable.b].push_back({{cable.a, 0, net::LinkClass::nic, cable.bandwidth, cable.latency}, c});
  }
  for (net::NodeId n = 0; n < nodes; ++n) {
    t.nodes[n].kind = net::NodeKind::switch_node;
    t.nodes[n].rack = n;
    t.nodes[n].first_port = static_cast<std::uint32_t>(t.ports.size());
    t.nodes[n].port_count = static_cast<net::PortIndex>(per_node[n].size());
    for (const auto& entry : per_node[n]) t.ports.push_back(entry.first);
    t.racks.push_back({net::RackKind::compute, n, 1});
  }
  for (std::uint32_t d = 0; d < devices.size(); ++d) {
    t.nodes[devices[d]].kind = net::NodeKind::device;
    t.nodes[devices[d]].device = d;
    t.devices.push_back(devices[d]);
  }
  return t;
}

// Line: nodes 0..h; port 0 points down the line, port 1 up it (node 0 has only "up" as port 0).
class LineRouter final : public net::Router {
 public:
  net::RouteTag start(std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t) const override { return {}; }
  std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, net::RouteTag&) const override {
    if (at == 0) return 0;
    return dst > at ? 1 : 0;
  }
  std::string_view name() const override { return "line"; }
};

// Star: node 0 is the switch, its port i leads to node i + 1; every other node's port 0 leads to it.
class StarRouter final : public net::Router {
 public:
  net::RouteTag start(std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t) const override { return {}; }
  std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, net::RouteTag&) const override {
    return at == 0 ? static_cast<std::uint16_t>(dst - 1) : 0;
  }
  std::string_view name() const override { return "star"; }
};

// Any topology whose cables form a tree (one path between two nodes): the next port towards every node,
// found by a breadth-first search from each destination.
class TreeRouter final : public net::Router {
 public:
  explicit TreeRouter(const net::Topology& t) : next_(t.nodes.size(), std::vector<std::uint16_t>(t.nodes.size(), 0)) {
    for (net::NodeId dst = 0; dst < t.nodes.size(); ++dst) {
      std::vector<bool> seen(t.nodes.size(), false);
      std::deque<net::NodeId> frontier{dst};
      seen[dst] = true;
      while (!frontier.empty()) {
        const net::NodeId at = frontier.front();
        frontier.pop_front();
        for (std::uint16_t i = 0; i < t.nodes[at].port_count; ++i) {
          const net::NodeId from = t.ports[t.nodes[at].first_port + i].peer;
          if (seen[from]) continue;
          seen[from] = true;
          for (std::uint16_t j = 0; j < t.nodes[from].port_count; ++j)  // the port of `from` that leads to `at`
            if (t.ports[t.nodes[from].first_port + j].peer == at) next_[from][dst] = j;
          frontier.push_back(from);
        }
      }
    }
  }
  net::RouteTag start(std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t) const override { return {}; }
  std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, net::RouteTag&) const override { return next_[at][dst]; }
  std::string_view name() const override { return "tree"; }

 private:
  std::vector<std::vector<std::uint16_t>> next_;  // [at][dst]
};

}  // namespace rackscale::testing
