#include "search/pareto_front.hpp"

#include <algorithm>

namespace rackscale::search {

std::vector<std::size_t> pareto_front(const std::vector<ParetoPoint>& points) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const ParetoPoint& p = points[i];
    const bool dominated = std::any_of(points.begin(), points.end(), [&](const ParetoPoint& q) {
      return q.x <= p.x && q.y <= p.y && (q.x < p.x || q.y < p.y);
    });
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](std::size_t a, std::size_t b) {
    if (points[a].x != points[b].x) return points[a].x < points[b].x;
    if (points[a].y != points[b].y) return points[a].y < points[b].y;
    return a < b;
  });
  return front;
}

}  // namespace rackscale::search
