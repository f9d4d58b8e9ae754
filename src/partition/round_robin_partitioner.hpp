#pragma once
// Vertices dealt out over the parts in turn: vertex v on part v mod parts. Balances counts whatever the
// weights; scatters neighbours, so it is the worst case for cross-rank traffic and a useful contrast to
// block and METIS. With vertex classes the deal runs over the vertices sorted by class, so that each
// class is spread evenly: racks of leaves and of spines that alternate in id order would otherwise fall
// all on even and all on odd parts.
#include "partition/partitioner.hpp"

namespace rackscale::partition {

class RoundRobinPartitioner final : public Partitioner {
 public:
  [[nodiscard]] std::vector<std::int32_t> assign(const Graph& graph, int parts) const override;
  [[nodiscard]] std::string_view name() const override { return "round_robin"; }
};

}  // namespace rackscale::partition
