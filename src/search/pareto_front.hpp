#pragma once
// The Pareto front of points that minimize two figures (time to train and cost, or time and carbon):
// a point is on it when no other point is at least as good in both and better in one. Points with equal
// figures are all on it or all off it. Used by the cluster search (docs/search.md).
#include <cstddef>
#include <vector>

namespace rackscale::search {

struct ParetoPoint {
  double x = 0;  // lower is better
  double y = 0;  // lower is better
};

// The indexes of the points on the front, in increasing x (ties: increasing y, then index).
[[nodiscard]] std::vector<std::size_t> pareto_front(const std::vector<ParetoPoint>& points);

}  // namespace rackscale::search
