#include "partition/round_robin_partitioner.hpp"

#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

namespace rackscale::partition {

std::vector<std::int32_t> RoundRobinPartitioner::assign(const Graph& graph, int parts) const {
  const auto n = static_cast<std::size_t>(parts);
  std::vector<std::int32_t> part(graph.vertex_count());
  if (graph.vertex_class.empty()) {
    for (std::size_t v = 0; v < part.size(); ++v) part[v] = static_cast<std::int32_t>(v % n);
    return part;
  }
  if (graph.vertex_class.size() != part.size())
    throw std::invalid_argument(fmt::format("round_robin: {} vertex classes for {} vertices",
                                            graph.vertex_class.size(), part.size()));
  // Each class's next part; a class starts where the deal of all vertices stood at its first vertex, so
  // that vertices of one class alone (no other class) are dealt exactly as without classes.
  std::unordered_map<std::int32_t, std::size_t> next;
  for (std::size_t v = 0; v < part.size(); ++v) {
    const auto slot = next.try_emplace(graph.vertex_class[v], v % n).first;
    part[v] = static_cast<std::int32_t>(slot->second);
    slot->second = (slot->second + 1) % n;
  }
  return part;
}

}  // namespace rackscale::partition
