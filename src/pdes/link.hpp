#pragma once
// A link: a declared channel between two LPs with a minimum latency. Links are how a model tells the
// engine its lookahead: no event can cross between the two LPs sooner than the latency, so a rank can
// safely run ahead of the others by the smallest latency of any link whose ends are on different ranks.
#include <span>

#include "pdes/event.hpp"
#include "pdes/rank_map.hpp"
#include "pdes/time.hpp"

namespace rackscale::pdes {

struct Link {
  LpId a = kNoLp;
  LpId b = kNoLp;
  SimTime latency = 0;  // both directions
};

// The smallest latency among `links` whose ends are on different ranks of `map`; kNever if none.
[[nodiscard]] SimTime min_cross_rank_latency(std::span<const Link> links, const RankMap& map) noexcept;

}  // namespace rackscale::pdes
