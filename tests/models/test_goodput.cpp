// The run-level goodput model (src/models/goodput) against what can be worked out without it: the
// checkpoint arithmetic by hand, the mean time of one Poisson class against its closed form within
// the Monte-Carlo error, Young/Daly's interval against the simulated optimum, spares by hand, and the
// same figures on one rank and on all.
#include <cmath>
#include <cstdint>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "models/goodput/checkpoint_schedule.hpp"
#include "models/goodput/expected_run.hpp"
#include "models/goodput/llama3_failures.hpp"
#include "models/goodput/monte_carlo.hpp"
#include "models/goodput/run_statistics.hpp"
#include "models/goodput/spare_pool.hpp"

namespace gp = rackscale::models::goodput;
namespace pdes = rackscale::pdes;

namespace {
boost::mpi::communicator world() { return {}; }
constexpr pdes::SimTime kS = pdes::kSecond;

// One class of mean time between interruptions `mtbf_s`, no recovery time, synchronous checkpoints.
gp::RunPlan one_class(double mtbf_s, double delta_s, double work_s, const std::vector<double>& intervals_s,
                      std::uint32_t replicas) {
  gp::RunPlan plan;
  plan.work = static_cast<pdes::SimTime>(work_s) * kS;
  plan.classes.push_back({"only", mtbf_s * 1e12, 1.0, false});
  for (const double tau : intervals_s)
    plan.schedules.push_back(gp::make_schedule(static_cast<pdes::SimTime>(tau * 1e12),
                                               static_cast<pdes::SimTime>(delta_s) * kS, false, 0.0));
  plan.replicas = replicas;
  plan.seed = 7;
  return plan;
}

std::vector<double> finish_seconds(const gp::MonteCarloResult& r, std::size_t schedule) {
  std::vector<double> out;
  for (const auto& replica : r.outcomes) out.push_back(pdes::to_seconds(replica[schedule].finish));
  return out;
}
}  // namespace

TEST(CheckpointSchedule, SynchronousSegmentsByHand) {
  const gp::CheckpointSchedule s = gp::make_schedule(100 * kS, 10 * kS, false, 0.9);
  EXPECT_EQ(s.stall, 10 * kS);
  // 350 s of work: 3 segments of 100 + 10, then 50 + 10.
  EXPECT_EQ(s.time_to_finish(350 * kS), 3 * 110 * kS + 60 * kS);
  EXPECT_EQ(s.time_to_finish(300 * kS), 330 * kS);  // the third checkpoint ends the run
  EXPECT_EQ(s.durable_checkpoints(109 * kS, 350 * kS), 0u);
  EXPECT_EQ(s.durable_checkpoints(110 * kS, 350 * kS), 1u);
  EXPECT_EQ(s.durable_checkpoints(329 * kS, 350 * kS), 2u);
  EXPECT_EQ(s.durable_checkpoints(385 * kS, 350 * kS), 3u);
  EXPECT_EQ(s.durable_checkpoints(329 * kS, 300 * kS), 2u);  // not the last: it ends the run
}

TEST(CheckpointSchedule, AsynchronousWritesEndInTheNextSegment) {
  const gp::CheckpointSchedule s = gp::make_schedule(100 * kS, 40 * kS, true, 0.75);
  EXPECT_EQ(s.stall, 10 * kS);
  // Checkpoint 1 durable at 100 + 40 = 140 s, checkpoint 2 at 210 + 40 = 250 s.
  EXPECT_EQ(s.durable_checkpoints(139 * kS, 1000 * kS), 0u);
  EXPECT_EQ(s.durable_checkpoints(140 * kS, 1000 * kS), 1u);
  EXPECT_EQ(s.durable_checkpoints(249 * kS, 1000 * kS), 1u);
  EXPECT_EQ(s.durable_checkpoints(250 * kS, 1000 * kS), 2u);
  EXPECT_EQ(s.time_to_finish(200 * kS), 210 * kS + 40 * kS);  // two segments, then the last write
  // A write longer than a segment raises the stall so that it ends before the next one starts.
  EXPECT_EQ(gp::make_schedule(30 * kS, 40 * kS, true, 1.0).stall, 10 * kS);
}

// Mean wall time of W = n tau of work under one Poisson class with no recovery time: the closed form
// (W / tau)(e^(lambda (tau + delta)) - 1) / lambda within four standard errors of the replicas' mean.
TEST(Goodput, OneClassMatchesTheClosedFormWithinTheMonteCarloError) {
  const double mtbf = 1000, delta = 10, tau = 140, work = 100 * tau;
  const auto result = gp::run_replicas(world(), one_class(mtbf, delta, work, {tau}, 4000));
  const std::vector<double> t = finish_seconds(result, 0);
  double mean = 0, square = 0;
  for (const double x : t) mean += x / static_cast<double>(t.size());
  for (const double x : t) square += (x - mean) * (x - mean);
  const double standard_error = std::sqrt(square / static_cast<double>(t.size() - 1) / static_cast<double>(t.size()));
  const double expected = gp::expected_time_closed_form(work, 1.0 / mtbf, tau, delta);
  EXPECT_NEAR(mean, expected, 4 * standard_error) << "standard error " << standard_error;
  EXPECT_GT(expected / work - 1, 20 * standard_error / work);  // the overhead is far above the noise
  // Lost time and downtime add up: finish = work + checkpoints + lost, no downtime.
  for (const auto& replica : result.outcomes) {
    EXPECT_EQ(replica[0].down, 0u);
    EXPECT_EQ((replica[0].finish - replica[0].lost) % ((140 + 10) * kS), 0u);
  }
}

TEST(Goodput, YoungDalyIsWithinTenPercentOfTheSimulatedOptimum) {
  const double mtbf = 10000, delta = 10;
  const double young_daly = gp::young_daly_interval(delta, mtbf);
  std::vector<double> intervals;
  for (int k = -8; k <= 8; ++k) intervals.push_back(std::round(young_daly * std::pow(2.0, k / 4.0)));
  const auto result = gp::run_replicas(world(), one_class(mtbf, delta, 200 * young_daly, intervals, 2000));
  std::vector<double> means;
  for (std::size_t s = 0; s < intervals.size(); ++s) means.push_back(gp::spread_of(finish_seconds(result, s)).mean);
  const gp::SweepOptimum optimum = gp::sweep_optimum(intervals, means);
  EXPECT_GT(optimum.best, 0u);
  EXPECT_LT(optimum.best + 1, intervals.size());
  EXPECT_NEAR(optimum.interval / young_daly, 1.0, 0.10) << "simulated optimum " << optimum.interval << " s";
}

// One spare and a repair of 1000 s: the first failure takes the spare, the second waits for the first
// node back (1010 s), the third (at 1015 s, two nodes out) for the second's (1020 s).
TEST(SparePool, AFailureWaitsForARepairWhenEverySpareIsTaken) {
  gp::SparePool pool(1, 1000 * kS);
  EXPECT_EQ(pool.node_failed(10 * kS), 10 * kS);
  EXPECT_EQ(pool.node_failed(20 * kS), 1010 * kS);
  EXPECT_EQ(pool.node_failed(1015 * kS), 1020 * kS);
  gp::SparePool none(0, 500 * kS);
  EXPECT_EQ(none.node_failed(7 * kS), 507 * kS);  // no spare: the node's own repair
}

TEST(Goodput, SameFiguresOnOneRankAndOnAll) {
  gp::RunPlan plan;
  plan.work = 5 * 86400 * kS;
  plan.classes = gp::class_processes(gp::llama3_failure_classes(), {16384, 2048});
  plan.detection = 300 * kS;
  plan.restart = 600 * kS;
  plan.hot_swap = 600 * kS;
  plan.repair = 86400 * kS;
  plan.spares = 2;
  plan.schedules = {gp::make_schedule(1800 * kS, 60 * kS, false, 0), gp::make_schedule(900 * kS, 60 * kS, true, 0.9)};
  plan.replicas = 37;
  const auto all = gp::run_replicas(world(), plan);
  const auto one = gp::run_replicas(world().split(world().rank()), plan);
  ASSERT_EQ(all.outcomes.size(), one.outcomes.size());
  for (std::size_t r = 0; r < all.outcomes.size(); ++r)
    for (std::size_t s = 0; s < 2; ++s) {
      EXPECT_EQ(all.outcomes[r][s].finish, one.outcomes[r][s].finish);
      EXPECT_EQ(all.outcomes[r][s].lost, one.outcomes[r][s].lost);
      EXPECT_EQ(all.outcomes[r][s].down, one.outcomes[r][s].down);
    }
  for (std::size_t r = 0; r < all.classes.size(); ++r)
    for (std::size_t c = 0; c < all.classes[r].size(); ++c) {
      EXPECT_EQ(all.classes[r][c].interruptions, one.classes[r][c].interruptions);
      EXPECT_EQ(all.classes[r][c].down, one.classes[r][c].down);
    }
  EXPECT_EQ(all.events, one.events);
  // Each replica's classes add up to its configured schedule's lost and down time.
  for (std::size_t r = 0; r < all.classes.size(); ++r) {
    pdes::SimTime lost = 0, down = 0;
    for (const gp::ClassOutcome& c : all.classes[r]) {
      lost += c.lost;
      down += c.down;
    }
    EXPECT_EQ(lost, all.outcomes[r][0].lost);
    EXPECT_EQ(down, all.outcomes[r][0].down);
  }
  EXPECT_GT(all.events, 37u * 20u);  // about 7.8 interruptions a day at 16,384 GPUs
}

// The closed form (expected_run.hpp) of one Poisson class with recoveries: MTBF 1,000 s, detection 20 s
// and restart 40 s (an interruption during a recovery starts it again), delta = 10 s, tau = 140 s (10
// iterations of 14 s), W = 100 tau. Its expected time and interruptions within four standard errors of
// 4,000 replicas of the Monte Carlo.
gp::ExpectedRunModel one_class_model(double mtbf, double detection, double restart, double delta) {
  gp::ExpectedRunModel m;
  m.classes.push_back({"only", mtbf * 1e12, 1.0, false});
  m.detection_s = detection;
  m.restart_s = restart;
  m.stall_s = m.write_s = delta;
  return m;
}

double standard_error(const std::vector<double>& x, double mean) {
  double square = 0;
  for (const double v : x) square += (v - mean) * (v - mean);
  return std::sqrt(square / static_cast<double>(x.size() - 1) / static_cast<double>(x.size()));
}

TEST(ExpectedRun, OneClassWithRecoveriesMatchesTheMonteCarlo) {
  const double mtbf = 1000, delta = 10, tau = 140, work = 100 * tau;
  gp::RunPlan plan = one_class(mtbf, delta, work, {tau}, 4000);
  plan.detection = 20 * kS;
  plan.restart = 40 * kS;
  const auto result = gp::run_replicas(world(), plan);
  std::vector<double> t = finish_seconds(result, 0), n;
  for (const auto& replica : result.classes) n.push_back(static_cast<double>(replica[0].interruptions));
  const double mean_t = gp::spread_of(t).mean, mean_n = gp::spread_of(n).mean;

  gp::ExpectedRunModel model = one_class_model(mtbf, 20, 40, delta);
  model.interval_s = tau;
  const gp::ExpectedRun e = model.expected(14, 1000);
  EXPECT_DOUBLE_EQ(e.interval_s, tau);
  EXPECT_NEAR(mean_t, e.time_s, 4 * standard_error(t, mean_t)) << "closed form " << e.time_s;
  EXPECT_NEAR(mean_n, e.interruptions, 4 * standard_error(n, mean_n)) << "closed form " << e.interruptions;
  // The recoveries are far above the noise: without them the closed form is far off.
  EXPECT_GT(e.down_s, 40 * standard_error(t, mean_t));
  EXPECT_NEAR(e.time_s, e.work_s + e.checkpoint_s + e.lost_s + e.down_s, 1e-6 * e.time_s);
  // Without recoveries it is the plain closed form the Monte Carlo was checked against above.
  const gp::ExpectedRun plain = one_class_model(mtbf, 0, 0, delta).expected(140, 100);
  EXPECT_NEAR(plain.time_s, gp::expected_time_closed_form(work, 1.0 / mtbf, tau, delta), 1e-9 * work);
}

// least_factor is below every interval's expected time per unit of work (branch and bound relies on it,
// search/layout_figures.hpp) and reached at the optimal interval, which is within 10 % of Young/Daly's when
// delta / MTBF is small (10^-3 here: 447 s).
TEST(ExpectedRun, LeastFactorBoundsEveryIntervalAndTheOptimumIsNearYoungDaly) {
  gp::ExpectedRunModel model = one_class_model(10000, 180, 420, 10);
  const double least = model.least_factor();
  for (double t = 0.5; t < 3000; t *= 1.37)
    for (const std::uint64_t n : {1ULL, 7ULL, 1000ULL, 123457ULL}) {
      const gp::ExpectedRun e = model.expected(t, n);
      EXPECT_GE(e.time_s, least * e.work_s) << t << " s x " << n;
    }
  const double optimum = model.optimal_interval_s();
  EXPECT_NEAR(optimum / model.young_daly_s(), 1.0, 0.10);
  model.interval_s = optimum;
  const gp::ExpectedRun at = model.expected(optimum, 1000);
  EXPECT_NEAR(at.time_s / at.work_s / least, 1.0, 1e-9);
  // No interruptions: the ideal run plus its checkpoints, and a factor of 1.
  const gp::ExpectedRunModel none;
  EXPECT_EQ(none.least_factor(), 1.0);
  EXPECT_DOUBLE_EQ(none.expected(2, 10).time_s, 20.0);
}

// The defaults' arithmetic: Table 5's 419 unexpected interruptions plus 47 planned over 54 days on
// 16,384 GPUs in 2,048 nodes are 466 / 54 = 8.63 a day for that job.
TEST(Goodput, Llama3DefaultsGiveBackTheirCounts) {
  const auto classes = gp::class_processes(gp::llama3_failure_classes(), {16384, 2048});
  EXPECT_NEAR(gp::job_rate_per_hour(classes) * 54 * 24, 466.0, 1e-9);
  EXPECT_EQ(classes.size(), 19u);
}
