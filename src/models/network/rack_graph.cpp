#include "models/network/rack_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "models/network/cross_rank_delays.hpp"
#include "partition/partitioner.hpp"

namespace rackscale::models::network {
namespace {

// Racks are contiguous node ranges and node.rack must agree with them; every function here relies on
// both, so a topology builder that broke them fails loudly instead of mis-placing LPs.
void check_racks(const Topology& topology) {
  NodeId next = 0;
  for (std::size_t r = 0; r < topology.racks.size(); ++r) {
    const Rack& rack = topology.racks[r];
    if (rack.first_node != next)
      throw std::invalid_argument(
          fmt::format("topology: rack {} starts at node {}; expected {} (racks must be contiguous node ranges)", r,
                      rack.first_node, next));
    next += rack.node_count;
    if (next > topology.nodes.size())
      throw std::invalid_argument(fmt::format("topology: rack {} extends past the last node", r));
    for (NodeId n = rack.first_node; n < next; ++n)
      if (topology.nodes[n].rack != r)
        throw std::invalid_argument(fmt::format("topology: node {} says rack {} but lies in rack {}", n,
                                                topology.nodes[n].rack, r));
  }
  if (next != topology.nodes.size())
    throw std::invalid_argument(fmt::format("topology: racks cover {} of {} nodes", next, topology.nodes.size()));
}

void check_rack_count(const Topology& topology, std::span<const std::int32_t> rack_rank) {
  if (rack_rank.size() != topology.racks.size())
    throw std::invalid_argument(
        fmt::format("rack placement: {} entries for {} racks", rack_rank.size(), topology.racks.size()));
}

}  // namespace

std::int64_t cable_weight(const Topology& topology, NodeId node, const Port& port) {
  const double bandwidth = node < port.peer ? port.bandwidth : topology.port(port.peer, port.peer_port).bandwidth;
  return std::llround(bandwidth);
}

void check_rack_rank(const Topology& topology, std::span<const std::int32_t> rack_rank, int ranks) {
  if (ranks < 1) throw std::invalid_argument(fmt::format("rack placement: {} ranks; expected at least 1", ranks));
  check_rack_count(topology, rack_rank);
  for (std::size_t r = 0; r < rack_rank.size(); ++r)
    if (rack_rank[r] < 0 || rack_rank[r] >= ranks)
      throw std::invalid_argument(
          fmt::format("rack placement: rack {} is on rank {}; expected a rank in [0, {})", r, rack_rank[r], ranks));
}

RackWeight rack_weight_for(Fidelity fidelity) noexcept {
  return fidelity == Fidelity::analytical ? RackWeight::devices_and_scale_up : RackWeight::every_node;
}

bool weighs(const Node& node, RackWeight weight, const ReplicaMirror& mirror) noexcept {
  if (node.kind == NodeKind::device) return mirror.simulated(node.device);
  return weight == RackWeight::every_node || node.role == SwitchRole::scale_up;
}

partition::Graph rack_graph(const Topology& topology, RackWeight weight, const ReplicaMirror& mirror) {
  check_racks(topology);
  if (topology.racks.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument(
        fmt::format("topology: {} racks exceed the rack graph's 32-bit ids", topology.racks.size()));
  const auto rack_count = static_cast<std::size_t>(static_cast<std::int32_t>(topology.racks.size()));
  partition::Graph g;
  g.vertex_weight.resize(rack_count);
  // A rack's class for round robin: compute racks, or network racks by the role of their first switch
  // (NetworkRacks never mixes groups; a pod's leaves and spines fill racks of their own when the rack
  // size divides their counts). Dealing each class apart keeps a fat tree's leaf racks, which carry most
  // of a rail-optimized job's data-parallel traffic, from all landing on even ranks.
  g.vertex_class.resize(rack_count);
  g.offsets.assign(rack_count + 1, 0);

  // Rows are built rack by rack: slot[s] is where rack s's edge sits in the current row (or -1), so
  // parallel cables merge in O(1) without a hash map; after sorting the row, only its own slots are
  // reset, so the whole pass is O(nodes + ports + racks) apart from the small per-row sorts.
  std::vector<std::int32_t> slot(rack_count, -1);
  std::vector<std::pair<std::int32_t, std::int64_t>> row;
  for (std::size_t r = 0; r < rack_count; ++r) {
    const Rack& rack = topology.racks[r];
    g.vertex_weight[r] = 0;
    g.vertex_class[r] = rack.kind == RackKind::compute || rack.node_count == 0
                            ? 0
                            : 1 + static_cast<std::int32_t>(topology.nodes[rack.first_node].role);
    row.clear();
    for (NodeId n = rack.first_node; n < rack.first_node + rack.node_count; ++n) {
      g.vertex_weight[r] += weighs(topology.nodes[n], weight, mirror) ? 1 : 0;
      for (const Port& port : topology.ports_of(n)) {
        const std::uint32_t peer_rack = topology.nodes[port.peer].rack;
        if (peer_rack == r) continue;
        const std::int64_t w = cable_weight(topology, n, port);
        std::int32_t& s = slot[peer_rack];
        if (s < 0) {
          s = static_cast<std::int32_t>(row.size());
          row.emplace_back(static_cast<std::int32_t>(peer_rack), w);
        } else {
          row[static_cast<std::size_t>(s)].second += w;
        }
      }
    }
    // A one-replica run's compute racks without a simulated device handle no events (their scale-up
    // switches neither): they weigh nothing and are dealt apart from those with one, so that the
    // simulated replica spreads over the ranks.
    if (rack.kind == RackKind::compute && mirror.replicas() > 1 &&
        std::none_of(topology.nodes.begin() + rack.first_node, topology.nodes.begin() + rack.first_node + rack.node_count,
                     [&](const Node& n) { return n.kind == NodeKind::device && mirror.simulated(n.device); })) {
      g.vertex_weight[r] = 0;
      g.vertex_class[r] = -1;
    }
    std::sort(row.begin(), row.end());
    for (const auto& [peer_rack, w] : row) {
      slot[static_cast<std::size_t>(peer_rack)] = -1;
      g.neighbors.push_back(peer_rack);
      g.edge_weight.push_back(w);
    }
    g.offsets[r + 1] = static_cast<std::int64_t>(g.neighbors.size());
  }
  return g;
}

std::vector<std::int32_t> partition_racks(const Topology& topology, std::string_view method, int ranks,
                                          Fidelity fidelity, const ReplicaMirror& mirror) {
  if (ranks < 1) throw std::invalid_argument(fmt::format("rack placement: {} ranks; expected at least 1", ranks));
  const auto partitioner = partition::make_partitioner(method);
  return partitioner->assign(rack_graph(topology, rack_weight_for(fidelity), mirror), ranks);
}

pdes::RankMap lp_rank_map(const Topology& topology, std::span<const std::int32_t> rack_rank, int ranks) {
  check_rack_rank(topology, rack_rank, ranks);
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = rack_rank[topology.nodes[n].rack];
  return {std::move(owner), ranks};
}

pdes::SimTime cross_rank_lookahead(const Topology& topology, std::span<const std::int32_t> rack_rank,
                                   Fidelity fidelity) {
  check_rack_count(topology, rack_rank);
  const CrossRankDelays delays(topology, fidelity);
  pdes::SimTime lookahead = pdes::kNever;
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    const std::int32_t rank = rack_rank[topology.nodes[n].rack];
    for (const Port& port : topology.ports_of(n))
      if (rack_rank[topology.nodes[port.peer].rack] != rank) lookahead = std::min(lookahead, delays.of(n, port));
  }
  return lookahead;
}

std::vector<pdes::Link> cross_rank_links(const Topology& topology, std::span<const std::int32_t> rack_rank,
                                         Fidelity fidelity) {
  check_rack_count(topology, rack_rank);
  const CrossRankDelays delays(topology, fidelity);
  std::vector<pdes::Link> links;
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    const std::int32_t rank = rack_rank[topology.nodes[n].rack];
    for (const Port& port : topology.ports_of(n)) {
      if (port.peer < n || rack_rank[topology.nodes[port.peer].rack] == rank) continue;
      const Port& back = topology.port(port.peer, port.peer_port);
      links.push_back({n, port.peer, std::min(delays.of(n, port), delays.of(port.peer, back))});
    }
  }
  return links;
}

}  // namespace rackscale::models::network
