#include "pdes/rank_map.hpp"

#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::pdes {

RankMap::RankMap(std::vector<std::int32_t> owner, int ranks) : owner_(std::move(owner)), ranks_(ranks) {
  if (ranks < 1) throw std::invalid_argument(fmt::format("rank map: {} ranks; expected at least 1", ranks));
  if (owner_.size() >= std::numeric_limits<LpId>::max())
    throw std::invalid_argument(fmt::format("rank map: {} LPs exceed the 32-bit LP id space", owner_.size()));
  for (std::size_t lp = 0; lp < owner_.size(); ++lp) {
    if (owner_[lp] < 0 || owner_[lp] >= ranks)
      throw std::invalid_argument(
          fmt::format("rank map: LP {} is placed on rank {}; expected a rank in [0, {})", lp, owner_[lp], ranks));
  }
}

RankMap RankMap::single_rank(LpId lp_count) { return {std::vector<std::int32_t>(lp_count, 0), 1}; }

std::vector<LpId> RankMap::lps_of(int rank) const {
  std::vector<LpId> lps;
  for (LpId lp = 0; lp < lp_count(); ++lp)
    if (owner_[lp] == rank) lps.push_back(lp);
  return lps;
}

}  // namespace rackscale::pdes
