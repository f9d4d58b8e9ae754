#pragma once
// Small graphs for partitioner tests, built from edge lists so each test states its graph plainly.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "partition/graph.hpp"

namespace rackscale::partition::testing {

struct Edge {
  std::int32_t a;
  std::int32_t b;
  std::int64_t weight = 1;
};

// CSR with each edge stored in both directions, neighbours in the order the edges are listed.
inline Graph from_edges(std::vector<std::int64_t> vertex_weight, const std::vector<Edge>& edges) {
  const std::size_t n = vertex_weight.size();
  std::vector<std::vector<std::pair<std::int32_t, std::int64_t>>> adjacency(n);
  for (const Edge& e : edges) {
    adjacency[static_cast<std::size_t>(e.a)].emplace_back(e.b, e.weight);
    adjacency[static_cast<std::size_t>(e.b)].emplace_back(e.a, e.weight);
  }
  Graph g;
  g.vertex_weight = std::move(vertex_weight);
  g.offsets.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (const auto& [u, w] : adjacency[v]) {
      g.neighbors.push_back(u);
      g.edge_weight.push_back(w);
    }
    g.offsets[v + 1] = static_cast<std::int64_t>(g.neighbors.size());
  }
  return g;
}

// A ring of k * m unit vertices whose ids interleave k runs: the vertex at ring position i has id
// (i mod k) * m + i / k. Contiguous blocks of m ids (block partitioning into k parts) then put every
// pair of ring neighbours on different parts, so block cuts all k * m edges, while k arcs of the ring
// cut only k.
inline Graph interleaved_ring(std::int32_t k, std::int32_t m, std::int64_t edge_weight = 1) {
  const std::int32_t n = k * m;
  auto id = [&](std::int32_t i) { return (i % k) * m + i / k; };
  std::vector<Edge> edges;
  for (std::int32_t i = 0; i < n; ++i) edges.push_back({id(i), id((i + 1) % n), edge_weight});
  return from_edges(std::vector<std::int64_t>(static_cast<std::size_t>(n), 1), edges);
}

// A rows x cols grid (4-neighbour), vertex (r, c) has id r * cols + c.
inline Graph grid(std::int32_t rows, std::int32_t cols, std::vector<std::int64_t> vertex_weight = {}) {
  const auto n = static_cast<std::size_t>(rows * cols);
  if (vertex_weight.empty()) vertex_weight.assign(n, 1);
  std::vector<Edge> edges;
  for (std::int32_t r = 0; r < rows; ++r)
    for (std::int32_t c = 0; c < cols; ++c) {
      if (c + 1 < cols) edges.push_back({r * cols + c, r * cols + c + 1, 1});
      if (r + 1 < rows) edges.push_back({r * cols + c, (r + 1) * cols + c, 1});
    }
  return from_edges(std::move(vertex_weight), edges);
}

// A reproducible irregular graph: n vertices of weight 1..max_vertex_weight, each joined to `degree`
// others chosen by a fixed linear congruential sequence, edge weights 1..max_edge_weight (parallel
// edges merged, self loops skipped).
inline Graph scrambled(std::int32_t n, std::int32_t degree, std::int64_t max_vertex_weight, std::int64_t max_edge_weight) {
  std::uint64_t state = 12345;
  auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  std::vector<std::int64_t> weights(static_cast<std::size_t>(n));
  for (auto& w : weights) w = 1 + static_cast<std::int64_t>(next(static_cast<std::uint64_t>(max_vertex_weight)));
  std::vector<std::vector<std::int64_t>> matrix(static_cast<std::size_t>(n), std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
  for (std::int32_t v = 0; v < n; ++v)
    for (std::int32_t d = 0; d < degree; ++d) {
      const auto u = static_cast<std::int32_t>(next(static_cast<std::uint64_t>(n)));
      if (u == v) continue;
      const std::int64_t w = 1 + static_cast<std::int64_t>(next(static_cast<std::uint64_t>(max_edge_weight)));
      matrix[static_cast<std::size_t>(std::min(u, v))][static_cast<std::size_t>(std::max(u, v))] += w;
    }
  std::vector<Edge> edges;
  for (std::int32_t a = 0; a < n; ++a)
    for (std::int32_t b = a + 1; b < n; ++b)
      if (const std::int64_t w = matrix[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]; w > 0) edges.push_back({a, b, w});
  return from_edges(std::move(weights), edges);
}

}  // namespace rackscale::partition::testing
