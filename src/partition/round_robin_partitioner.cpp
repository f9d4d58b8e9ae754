#include "partition/round_robin_partitioner.hpp"

namespace rackscale::partition {

std::vector<std::int32_t> RoundRobinPartitioner::assign(const Graph& graph, int parts) const {
  std::vector<std::int32_t> part(graph.vertex_count());
  for (std::size_t v = 0; v < part.size(); ++v)
    part[v] = static_cast<std::int32_t>(v % static_cast<std::size_t>(parts));
  return part;
}

}  // namespace rackscale::partition
