#pragma once
// Which rank owns each LP. Every rank holds the same map, so any rank can route an event to any LP.
#include <cstdint>
#include <vector>

#include "pdes/event.hpp"

namespace rackscale::pdes {

class RankMap {
 public:
  // owner[i] is the rank of LP i; throws std::invalid_argument if an owner is outside [0, ranks).
  RankMap(std::vector<std::int32_t> owner, int ranks);

  // Every LP on rank 0: the map of a sequential run.
  static RankMap single_rank(LpId lp_count);

  [[nodiscard]] int owner(LpId lp) const noexcept { return owner_[lp]; }
  [[nodiscard]] LpId lp_count() const noexcept { return static_cast<LpId>(owner_.size()); }
  [[nodiscard]] int ranks() const noexcept { return ranks_; }
  // The LPs of `rank`, in increasing id order.
  [[nodiscard]] std::vector<LpId> lps_of(int rank) const;

 private:
  std::vector<std::int32_t> owner_;
  int ranks_;
};

}  // namespace rackscale::pdes
