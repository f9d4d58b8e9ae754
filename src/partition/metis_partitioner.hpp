#pragma once
// Multilevel k-way partitioning with METIS (Karypis & Kumar): balances vertex weight (LPs) across
// parts while minimizing the total weight of cut edges (bandwidth between racks), so that most
// traffic stays on one rank and the ranks carry similar loads.
#include "partition/partitioner.hpp"

namespace rackscale::partition {

class MetisPartitioner final : public Partitioner {
 public:
  // Allowed imbalance, in METIS's units (METIS_OPTION_UFACTOR, thousandths): a part may weigh up to
  // (1 + kUfactor / 1000) times the mean. 5 %: a window lasts as long as its slowest rank, so 5 %
  // excess LPs cost at most 5 % of event-handling time, while the looser bound (METIS's k-way
  // default is 3 %) lets METIS keep whole pods or groups of racks together and cut fewer cables;
  // cross-rank events cost far more than local ones, and LP count is only a proxy for load anyway
  // (device and switch LPs handle different numbers of events).
  static constexpr int kUfactor = 50;
  // METIS's random seed, fixed so the same graph gives the same parts on every rank and every run.
  static constexpr int kSeed = 1;

  // The smallest-cut answer among METIS runs on the graph's edge weights and on coarsened ones, and
  // block's placement, that is balanced within kUfactor or at least as well as block (see the .cpp for
  // why METIS alone is not enough): never less balanced than that, never a larger cut than block.
  // Deterministic. parts == 1: all zeros without calling METIS. Fewer vertices than parts (or as
  // many): vertex v on part v, the best possible balance (or block's placement if it is as balanced
  // and cuts less), without calling METIS. Every part gets a vertex when there are enough. Throws
  // std::invalid_argument for parts < 1 or a malformed graph (the graph must be symmetric, as METIS
  // requires), std::runtime_error when METIS fails.
  [[nodiscard]] std::vector<std::int32_t> assign(const Graph& graph, int parts) const override;
  [[nodiscard]] std::string_view name() const override { return "metis"; }
};

}  // namespace rackscale::partition
