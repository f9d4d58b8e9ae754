#include "partition/graph.hpp"

#include <numeric>

namespace rackscale::partition {

std::int64_t Graph::total_vertex_weight() const noexcept {
  return std::accumulate(vertex_weight.begin(), vertex_weight.end(), std::int64_t{0});
}

Graph Graph::isolated(std::size_t n, std::int64_t weight) {
  Graph g;
  g.vertex_weight.assign(n, weight);
  g.offsets.assign(n + 1, 0);
  return g;
}

}  // namespace rackscale::partition
