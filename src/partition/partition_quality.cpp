#include "partition/partition_quality.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::partition {

PartitionQuality partition_quality(const Graph& graph, int parts, std::span<const std::int32_t> part) {
  if (parts < 1) throw std::invalid_argument(fmt::format("partition quality: {} parts; expected at least 1", parts));
  const std::size_t n = graph.vertex_count();
  if (part.size() != n)
    throw std::invalid_argument(
        fmt::format("partition quality: {} part entries for a graph of {} vertices", part.size(), n));
  for (std::size_t v = 0; v < n; ++v)
    if (part[v] < 0 || part[v] >= parts)
      throw std::invalid_argument(
          fmt::format("partition quality: vertex {} is on part {}; expected a part in [0, {})", v, part[v], parts));

  const auto p_count = static_cast<std::size_t>(parts);
  PartitionQuality q;
  q.part_weight.assign(p_count, 0);
  q.part_cut_weight.assign(p_count, 0);
  for (std::size_t v = 0; v < n; ++v) q.part_weight[static_cast<std::size_t>(part[v])] += graph.vertex_weight[v];

  // Each undirected edge appears twice in the adjacency lists; counting only the copy with u > v counts
  // it once.
  for (std::size_t v = 0; v < n; ++v) {
    for (auto e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e) {
      const auto i = static_cast<std::size_t>(e);
      const auto u = static_cast<std::size_t>(graph.neighbors[i]);
      if (u <= v || part[u] == part[v]) continue;
      const std::int64_t w = graph.edge_weight[i];
      ++q.cut_edges;
      q.cut_weight += w;
      q.part_cut_weight[static_cast<std::size_t>(part[v])] += w;
      q.part_cut_weight[static_cast<std::size_t>(part[u])] += w;
    }
  }

  const std::int64_t total = graph.total_vertex_weight();
  if (total > 0) {
    const std::int64_t heaviest = *std::max_element(q.part_weight.begin(), q.part_weight.end());
    // max / (total / parts) = max * parts / total, in one division so that exact cases stay exact.
    q.imbalance = static_cast<double>(heaviest) * static_cast<double>(parts) / static_cast<double>(total);
  }
  return q;
}

}  // namespace rackscale::partition
