#pragma once
// Contiguous blocks of vertices in id order, balanced by vertex weight. Keeps neighbours together when
// ids follow the topology (racks numbered along the fabric), and costs nothing to compute.
#include "partition/partitioner.hpp"

namespace rackscale::partition {

class BlockPartitioner final : public Partitioner {
 public:
  [[nodiscard]] std::vector<std::int32_t> assign(const Graph& graph, int parts) const override;
  [[nodiscard]] std::string_view name() const override { return "block"; }
};

}  // namespace rackscale::partition
