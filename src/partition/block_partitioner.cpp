#include "partition/block_partitioner.hpp"

#include <algorithm>

namespace rackscale::partition {

std::vector<std::int32_t> BlockPartitioner::assign(const Graph& graph, int parts) const {
  // Vertex v goes to the part whose share of the total weight contains the middle of v's own weight:
  // part = floor((weight before v + w_v / 2) * parts / total). With unit weights the blocks differ in
  // size by at most one. Integer arithmetic (doubled to keep the half exact) so every rank agrees.
  __extension__ using Int128 = __int128;  // (2 * weight) * parts may exceed 64 bits
  const std::int64_t total = graph.total_vertex_weight();
  std::vector<std::int32_t> part(graph.vertex_count(), 0);
  if (total <= 0) return part;
  std::int64_t before = 0;
  for (std::size_t v = 0; v < graph.vertex_count(); ++v) {
    const std::int64_t w = graph.vertex_weight[v];
    const Int128 middle_times_two = static_cast<Int128>(2 * before + w) * parts;
    const auto p = static_cast<std::int64_t>(middle_times_two / (2 * static_cast<Int128>(total)));
    part[v] = static_cast<std::int32_t>(std::min<std::int64_t>(p, parts - 1));
    before += w;
  }
  return part;
}

}  // namespace rackscale::partition
