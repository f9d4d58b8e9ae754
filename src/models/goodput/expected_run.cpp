#include "models/goodput/expected_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rackscale::models::goodput {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double class_rate(const ClassProcess& c) noexcept { return std::isfinite(c.mean_ps) ? 1e12 / c.mean_ps : 0.0; }

// One segment's expectations: x of work and its pause, redone until it runs through.
struct Segment {
  double time = 0, lost = 0, episodes = 0;
};

}  // namespace

double ExpectedRunModel::rate() const noexcept {
  double lambda = 0;
  for (const ClassProcess& c : classes) lambda += class_rate(c);
  return lambda;
}

double ExpectedRunModel::mtbf_s() const noexcept {
  const double lambda = rate();
  return lambda > 0 ? 1.0 / lambda : kInfinity;
}

double ExpectedRunModel::young_daly_s() const noexcept {
  if (!std::isfinite(mtbf_s())) return kInfinity;
  return std::max(std::sqrt(2.0 * stall_s * mtbf_s()), write_s - stall_s);
}

double ExpectedRunModel::mean_recovery_s() const noexcept {
  const double lambda = rate();
  if (!(lambda > 0)) return 0;
  double weighted = 0;
  for (const ClassProcess& c : classes)
    weighted += class_rate(c) * (detection_s + restart_s + (c.replaces_node ? hot_swap_s : 0.0));
  return weighted / lambda;
}

double ExpectedRunModel::episode_s() const noexcept {
  const double lambda = rate();
  return lambda > 0 ? std::expm1(lambda * mean_recovery_s()) / lambda : mean_recovery_s();
}

double ExpectedRunModel::optimal_interval_s() const noexcept {
  const double lambda = rate();
  if (!(lambda > 0)) return kInfinity;
  if (!(stall_s > 0)) return 0;
  // d/dtau of (e^(lambda (tau + s)) - 1) / tau is 0 where (1 - y) e^y = e^(-lambda s), y = lambda tau, which
  // has one root in (0, 1): the left side falls from 1 to 0 there. Bisection: the same bits everywhere.
  const double target = std::exp(-lambda * stall_s);
  double low = 0, high = 1;
  for (int i = 0; i < 200 && high - low > 0; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid == low || mid == high) break;
    ((1 - mid) * std::exp(mid) > target ? low : high) = mid;
  }
  return 0.5 * (low + high) / lambda;
}

double ExpectedRunModel::least_factor() const noexcept {
  const double lambda = rate();
  if (!(lambda > 0)) return 1.0;
  const double tau = optimal_interval_s();
  // Checkpoints that cost nothing: (e^(lambda tau) - 1) / tau -> lambda as tau -> 0.
  const double per_work = tau > 0 ? std::expm1(lambda * (tau + stall_s)) / tau : lambda;
  // Less a relative 1e-12: the bisection's root is within rounding of the true minimum, and the bound
  // must stay below every interval's factor as computed.
  return std::max(1.0, per_work * (1.0 / lambda + episode_s()) * (1.0 - 1e-12));
}

ExpectedRun ExpectedRunModel::expected(double iteration_s, std::uint64_t iterations) const {
  if (!(iteration_s > 0) || iterations == 0)
    throw std::invalid_argument("goodput: expected a run of at least one iteration of positive time");
  const double lambda = rate();
  const double episode = episode_s();
  const double per_episode = lambda > 0 ? std::exp(lambda * mean_recovery_s()) : 1.0;
  const auto segment = [&](double work) {
    Segment s;
    const double x = work + stall_s;
    if (!(lambda > 0)) {
      s.time = x;
      return s;
    }
    s.episodes = std::expm1(lambda * x);
    s.time = s.episodes * (1.0 / lambda + episode);
    s.lost = std::max(0.0, s.episodes / lambda - x);
    return s;
  };

  ExpectedRun run;
  run.work_s = iteration_s * static_cast<double>(iterations);
  const double wanted = interval_s.value_or(young_daly_s());
  const double k = std::isfinite(wanted) ? std::round(wanted / iteration_s) : static_cast<double>(iterations);
  const auto per_segment = static_cast<std::uint64_t>(std::clamp(k, 1.0, static_cast<double>(iterations)));
  run.interval_s = static_cast<double>(per_segment) * iteration_s;
  const std::uint64_t full = iterations / per_segment, rest = iterations % per_segment;
  const Segment whole = segment(run.interval_s);
  const Segment last = rest > 0 ? segment(static_cast<double>(rest) * iteration_s) : Segment{};
  const auto n = static_cast<double>(full);
  const double episodes = n * whole.episodes + last.episodes;
  run.time_s = n * whole.time + last.time;
  run.lost_s = n * whole.lost + last.lost;
  run.down_s = episodes * episode;
  run.checkpoint_s = (n + (rest > 0 ? 1.0 : 0.0)) * stall_s;
  run.interruptions = episodes * per_episode;
  const double recovery = mean_recovery_s();
  for (const ClassProcess& c : classes) {
    const double share = lambda > 0 ? class_rate(c) / lambda : 0.0;
    const double own = detection_s + restart_s + (c.replaces_node ? hot_swap_s : 0.0);
    run.classes.push_back({c.name, class_rate(c) * 86400.0, run.interruptions * share,
                           recovery > 0 ? run.down_s * share * own / recovery : 0.0});
  }
  return run;
}

}  // namespace rackscale::models::goodput
