#pragma once
// What the replicas say, as numbers: spreads over replicas, the closed forms the model is checked
// against, and the best checkpoint interval of a sweep (docs/goodput.md).
#include <cstddef>
#include <vector>

namespace rackscale::models::goodput {

// Mean and the 10th, 50th and 90th percentiles (linear interpolation between order statistics,
// Hyndman and Fan's type 7, numpy's default) of a sample; all 0 for an empty one.
struct Spread {
  double mean = 0;
  double p10 = 0;
  double p50 = 0;
  double p90 = 0;
};
[[nodiscard]] Spread spread_of(std::vector<double> values);

// Young (1974) and Daly (2006)'s first-order optimal interval of work between checkpoints: sqrt(2 delta
// MTBF), for a checkpoint costing delta and a mean time between interruptions MTBF (same unit).
[[nodiscard]] double young_daly_interval(double checkpoint_cost, double mtbf);

// The expected wall time of `work` done in segments of `interval` of work, each followed by a
// checkpoint of cost `delta`, under interruptions at rate `lambda` (Poisson) with no recovery time, a
// segment redone from its start when interrupted: (work / interval) (e^(lambda (interval + delta)) - 1)
// / lambda (the renewal argument: a segment of length x needs (e^(lambda x) - 1) / lambda on average).
// `work` a multiple of `interval`.
[[nodiscard]] double expected_time_closed_form(double work, double lambda, double interval, double delta);

// The interval of least mean time in a sweep (intervals increasing): the best point, refined by the
// parabola in log(interval) through it and its neighbours when it has two.
struct SweepOptimum {
  std::size_t best = 0;      // index into the sweep
  double interval = 0;       // the refined optimum
  double mean_time = 0;      // the best point's mean
};
[[nodiscard]] SweepOptimum sweep_optimum(const std::vector<double>& intervals, const std::vector<double>& mean_times);

}  // namespace rackscale::models::goodput
