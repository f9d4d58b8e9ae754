#pragma once
// A partitioner assigns each vertex of a graph to one of `parts` ranks. An interface with small
// implementations chosen by name, so a run can compare placements of the same cluster.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partition/graph.hpp"

namespace rackscale::partition {

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  Partitioner() = default;
  Partitioner(const Partitioner&) = delete;
  Partitioner& operator=(const Partitioner&) = delete;

  // part[v] in [0, parts) for every vertex; deterministic: the same graph gives the same answer on
  // every rank and every run.
  [[nodiscard]] virtual std::vector<std::int32_t> assign(const Graph& graph, int parts) const = 0;
  [[nodiscard]] virtual std::string_view name() const = 0;
};

[[nodiscard]] const std::vector<std::string>& partitioner_names();

// Throws std::invalid_argument naming the valid choices when `name` is unknown.
[[nodiscard]] std::unique_ptr<Partitioner> make_partitioner(std::string_view name);

}  // namespace rackscale::partition
