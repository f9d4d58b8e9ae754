#include "models/goodput/run_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rackscale::models::goodput {
namespace {

// Type 7: h = (n - 1) p, between the order statistics floor(h) and floor(h) + 1.
double quantile_sorted(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto below = static_cast<std::size_t>(std::floor(h));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

Spread spread_of(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.p10 = quantile_sorted(values, 0.10);
  s.p50 = quantile_sorted(values, 0.50);
  s.p90 = quantile_sorted(values, 0.90);
  return s;
}

double young_daly_interval(double checkpoint_cost, double mtbf) { return std::sqrt(2.0 * checkpoint_cost * mtbf); }

double expected_time_closed_form(double work, double lambda, double interval, double delta) {
  return work / interval * std::expm1(lambda * (interval + delta)) / lambda;
}

SweepOptimum sweep_optimum(const std::vector<double>& intervals, const std::vector<double>& mean_times) {
  if (intervals.empty() || intervals.size() != mean_times.size())
    throw std::invalid_argument("sweep_optimum: expected as many mean times as intervals, and at least one");
  SweepOptimum o;
  o.best = static_cast<std::size_t>(std::min_element(mean_times.begin(), mean_times.end()) - mean_times.begin());
  o.interval = intervals[o.best];
  o.mean_time = mean_times[o.best];
  if (o.best == 0 || o.best + 1 == intervals.size()) return o;
  // Vertex of the parabola through (log x_i, y_i), i = best - 1, best, best + 1.
  const double x0 = std::log(intervals[o.best - 1]), x1 = std::log(intervals[o.best]), x2 = std::log(intervals[o.best + 1]);
  const double y0 = mean_times[o.best - 1], y1 = mean_times[o.best], y2 = mean_times[o.best + 1];
  const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1);
  const double curvature = (d12 - d01) / (x2 - x0);
  if (curvature > 0) {
    const double vertex = 0.5 * (x0 + x1) - d01 / (2.0 * curvature);
    o.interval = std::exp(std::clamp(vertex, x0, x2));
  }
  return o;
}

}  // namespace rackscale::models::goodput
