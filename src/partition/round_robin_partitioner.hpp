#pragma once
// Vertex v on part v mod parts. Balances counts whatever the weights; scatters neighbours, so it is
// the worst case for cross-rank traffic and a useful contrast to block and METIS.
#include "partition/partitioner.hpp"

namespace rackscale::partition {

class RoundRobinPartitioner final : public Partitioner {
 public:
  [[nodiscard]] std::vector<std::int32_t> assign(const Graph& graph, int parts) const override;
  [[nodiscard]] std::string_view name() const override { return "round_robin"; }
};

}  // namespace rackscale::partition
