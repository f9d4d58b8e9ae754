#pragma once
// The graph a partitioner cuts: weighted vertices (racks, or LPs for PHOLD) and weighted undirected
// edges (expected traffic or link bandwidth between them), stored as compressed adjacency lists with
// each edge present in both directions, the form METIS takes.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rackscale::partition {

struct Graph {
  std::vector<std::int64_t> vertex_weight;  // one per vertex, >= 1
  std::vector<std::int64_t> offsets{0};     // neighbors of v: [offsets[v], offsets[v+1])
  std::vector<std::int32_t> neighbors;
  std::vector<std::int64_t> edge_weight;    // parallel to neighbors
  // Optional, one per vertex: vertices of one class do like work (racks of compute nodes, of leaf
  // switches, of spines), so round robin deals each class out over the parts on its own. Empty: one class.
  std::vector<std::int32_t> vertex_class;

  [[nodiscard]] std::size_t vertex_count() const noexcept { return vertex_weight.size(); }
  [[nodiscard]] std::int64_t total_vertex_weight() const noexcept;

  // n vertices of weight `weight` and no edges.
  [[nodiscard]] static Graph isolated(std::size_t n, std::int64_t weight = 1);
};

}  // namespace rackscale::partition
