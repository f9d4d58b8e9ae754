#include "pdes/link.hpp"

#include <algorithm>

namespace rackscale::pdes {

SimTime min_cross_rank_latency(std::span<const Link> links, const RankMap& map) noexcept {
  SimTime lookahead = kNever;
  for (const Link& link : links)
    if (map.owner(link.a) != map.owner(link.b)) lookahead = std::min(lookahead, link.latency);
  return lookahead;
}

}  // namespace rackscale::pdes
