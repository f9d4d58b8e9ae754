#include "partition/round_robin_partitioner.hpp"

#include <cstddef>
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
  // The plain deal over the vertices sorted by class (classes in the order they first appear, vertices
  // in id order within each): every class is spread evenly, and the parts' counts still differ by at
  // most one. Vertices of a single class are dealt exactly as without classes.
  std::unordered_map<std::int32_t, std::size_t> class_index;  // class -> order of first appearance
  std::vector<std::size_t> count;                              // vertices per class, by that order
  for (const std::int32_t c : graph.vertex_class) {
    const auto [slot, fresh] = class_index.try_emplace(c, count.size());
    if (fresh) count.push_back(0);
    ++count[slot->second];
  }
  std::vector<std::size_t> next(count.size());  // each class's next part
  std::size_t dealt = 0;
  for (std::size_t i = 0; i < count.size(); ++i) {
    next[i] = dealt % n;
    dealt += count[i];
  }
  for (std::size_t v = 0; v < part.size(); ++v) {
    std::size_t& p = next[class_index[graph.vertex_class[v]]];
    part[v] = static_cast<std::int32_t>(p);
    p = (p + 1) % n;
  }
  return part;
}

}  // namespace rackscale::partition
