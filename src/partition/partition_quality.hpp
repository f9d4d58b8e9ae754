#pragma once
// How good an assignment of a graph's vertices to parts is: how evenly it spreads the vertex weight
// (LPs: work per rank) and how much edge weight it cuts (bandwidth, hence traffic, between ranks).
// The figures every partitioner is judged by, in tests and in `rackscale partition`.
#include <cstdint>
#include <span>
#include <vector>

#include "partition/graph.hpp"

namespace rackscale::partition {

struct PartitionQuality {
  // Total vertex weight on each part (index = part).
  std::vector<std::int64_t> part_weight;
  // max(part_weight) / mean(part_weight), mean = total weight / parts (empty parts count): 1.0 is
  // perfect balance; a window lasts as long as its heaviest rank, so this bounds the slowdown from
  // imbalance. 1.0 when the total weight is 0.
  double imbalance = 1.0;
  // Undirected edges whose ends are on different parts, each counted once, and their total weight.
  std::int64_t cut_edges = 0;
  std::int64_t cut_weight = 0;
  // Weight of the cut edges with one end on each part (every cut edge counts for both of its parts,
  // so these sum to 2 * cut_weight).
  std::vector<std::int64_t> part_cut_weight;
};

// `graph` must be symmetric (each edge stored in both directions with the same weight, as in Graph);
// self loops are never cut. Throws std::invalid_argument if parts < 1, part.size() differs from the
// vertex count, or a part is outside [0, parts).
[[nodiscard]] PartitionQuality partition_quality(const Graph& graph, int parts, std::span<const std::int32_t> part);

}  // namespace rackscale::partition
