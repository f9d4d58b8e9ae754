#include "models/network/partition_report.hpp"

#include <algorithm>
#include <utility>

#include "models/network/cross_rank_delays.hpp"
#include "models/network/rack_graph.hpp"

namespace rackscale::models::network {

PartitionReport partition_report(const Topology& topology, std::string method, std::span<const std::int32_t> rack_rank,
                                 int ranks, Fidelity fidelity, const ReplicaMirror& mirror) {
  check_rack_rank(topology, rack_rank, ranks);
  const RackWeight weight = rack_weight_for(fidelity);
  const CrossRankDelays delays(topology, fidelity);
  PartitionReport report;
  report.method = std::move(method);
  report.ranks = ranks;
  report.per_rank.assign(static_cast<std::size_t>(ranks), RankLoad{});
  for (const std::int32_t rank : rack_rank) ++report.per_rank[static_cast<std::size_t>(rank)].racks;

  // Bandwidths are summed as integers (cable_weight, as in rack_graph) so the totals do not depend on
  // summation order and agree exactly with the rack graph's cut weight.
  std::vector<std::int64_t> rank_cut(report.per_rank.size(), 0);
  std::int64_t cut = 0;
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    const Node& node = topology.nodes[n];
    const auto rank = static_cast<std::size_t>(rack_rank[node.rack]);
    RankLoad& load = report.per_rank[rank];
    ++load.lps;
    load.weighed += weighs(node, weight, mirror) ? 1u : 0u;
    if (node.kind == NodeKind::device)
      ++load.devices;
    else
      ++load.switches;
    for (const Port& port : topology.ports_of(n)) {
      const auto peer_rank = static_cast<std::size_t>(rack_rank[topology.nodes[port.peer].rack]);
      if (peer_rank == rank) continue;
      report.lookahead = std::min(report.lookahead, delays.of(n, port));
      // Each cable is seen from both ends; each end counts it for its own rank, and the lower node
      // counts it once for the totals.
      const std::int64_t w = cable_weight(topology, n, port);
      ++load.cut_cables;
      rank_cut[rank] += w;
      if (n < port.peer) {
        ++report.cross_rank_cables;
        cut += w;
      }
    }
  }
  for (std::size_t r = 0; r < rank_cut.size(); ++r) report.per_rank[r].cut_bandwidth = static_cast<double>(rank_cut[r]);
  report.cut_bandwidth = static_cast<double>(cut);

  std::uint64_t total = 0;
  for (const RankLoad& load : report.per_rank) total += load.weighed;
  if (total > 0) {
    const auto heaviest =
        std::max_element(report.per_rank.begin(), report.per_rank.end(), [](const RankLoad& a, const RankLoad& b) {
          return a.weighed < b.weighed;
        })->weighed;
    report.imbalance = static_cast<double>(heaviest) * static_cast<double>(ranks) / static_cast<double>(total);
  }
  return report;
}

}  // namespace rackscale::models::network
