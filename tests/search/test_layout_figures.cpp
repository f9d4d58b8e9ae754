// A layout's run figures (src/search/layout_figures.hpp): cost and carbon are the TCO model's accounting
// without a simulation (models/tco/accounting.hpp), and they must exist for runs longer than the
// simulator's clock (about 213 days), which account() states as one iteration and refuses: a slow layout
// of a big job (Llama 3 70B's 15T tokens on 1,024 H100s) used to stop the whole search with "accounting:
// the run is longer than the simulator's clock".
#include <cmath>

#include <gtest/gtest.h>

#include "io/config/scenario_loader.hpp"
#include "models/network/build_topology.hpp"
#include "models/tco/accounting.hpp"
#include "pdes/time.hpp"
#include "search/layout_figures.hpp"

namespace {
namespace search = rackscale::search;

search::CostModel laptop_costs(double token_budget) {
  auto s = rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", {});
  s.tco.inputs.token_budget = static_cast<std::uint64_t>(token_budget);
  const auto topology = rackscale::models::network::build_topology(s.cluster, s.network.routing);
  return search::cost_model(s.cluster, topology, s.tco);
}

constexpr std::uint64_t kTokens = 128 * 4096;  // laptop-64's global batch x sequence
}  // namespace

TEST(LayoutFigures, CostAndCarbonAreTheAccountingOfTheRunsDeviceHours) {
  const auto costs = laptop_costs(16e9);
  const search::IterationFigures it{100 * rackscale::pdes::kMillisecond, 60 * rackscale::pdes::kMillisecond, 0, 0};
  const auto f = search::run_figures(it, kTokens, 0, costs);
  rackscale::models::tco::AccountingRequest request;
  request.device_hours = 64.0 * f.time_to_train_seconds / 3600.0;
  request.utilization = 0.6;
  const auto report = rackscale::models::tco::account(costs.settings, costs.inventory, costs.power, request,
                                                      costs.accelerator);
  EXPECT_NEAR(f.cost_usd, report.whole_run.cost_usd, 1e-9 * report.whole_run.cost_usd);
  EXPECT_NEAR(f.carbon_kg, report.whole_run.carbon_kgco2e, 1e-9 * report.whole_run.carbon_kgco2e);
}

TEST(LayoutFigures, RunsLongerThanTheClockHaveACostToo) {
  // 16e12 tokens at 0.1 s per 524,288-token iteration: 30.5M iterations, 35 days; at 1 s, 353 days.
  const auto costs = laptop_costs(16e12);
  const search::IterationFigures fast{100 * rackscale::pdes::kMillisecond, 50 * rackscale::pdes::kMillisecond, 0, 0};
  const search::IterationFigures slow{rackscale::pdes::kSecond, 500 * rackscale::pdes::kMillisecond, 0, 0};
  const auto a = search::run_figures(fast, kTokens, 0, costs);
  const auto b = search::run_figures(slow, kTokens, 0, costs);
  EXPECT_GT(b.time_to_train_seconds, 300 * 86400.0);
  EXPECT_GT(b.cost_usd, 5 * a.cost_usd);
  EXPECT_GT(b.carbon_kg, a.carbon_kg);
  EXPECT_TRUE(std::isfinite(b.cost_usd));
}

// The goodput time's floor (floor_score): the closed form at the configured interval rounded to whole
// iterations is not monotonic in the iteration time (a slightly faster iteration can round to twice the
// interval), so the floor's own goodput time is not a lower bound; the floor's ideal time times the least
// factor is. MTBF 100 s, a 10 s checkpoint (Young/Daly 44.7 s): an iteration of 29.7 s rounds to 2 per
// interval (59.4 s), one of 29.85 s to 1.
TEST(LayoutFigures, GoodputTimeFloorIsBelowEveryLayoutAtOrAboveIt) {
  search::CostModel costs;
  rackscale::models::goodput::ExpectedRunModel model;
  model.classes.push_back({"only", 100e12, 1.0, false});
  model.detection_s = 5;
  model.restart_s = 15;
  model.stall_s = model.write_s = 10;
  costs.goodput = model;
  const std::uint64_t n = 1000;
  const auto figures = [&](double t) {
    search::RunFigures f;
    f.time_to_train_seconds = t * static_cast<double>(n);
    f.goodput_time_seconds = model.expected(t, n).time_s;
    return f;
  };
  const auto goodput_time = search::Objective::goodput_time;
  bool naive_floor_above = false;
  for (double floor = 10; floor < 60; floor += 0.05)
    for (double t = floor; t < floor + 3; t += 0.05) {
      const double score = search::score(goodput_time, figures(t));
      EXPECT_LE(search::floor_score(goodput_time, figures(floor), costs), score) << floor << " s under " << t << " s";
      naive_floor_above = naive_floor_above || search::score(goodput_time, figures(floor)) > score;
    }
  EXPECT_TRUE(naive_floor_above) << "the floor's own goodput time was a bound here: the test shows nothing";
  EXPECT_GT(search::score(goodput_time, figures(29.7)), search::score(goodput_time, figures(29.85)));
  // The other objectives' floors are their scores.
  EXPECT_EQ(search::floor_score(search::Objective::time, figures(20), costs), 20.0 * n);
}

// --budget and --deadline (broken_limit): the cost against the budget, the deadline against the time the
// objective ranks.
TEST(LayoutFigures, LimitsDropByCostAndByTheRankedTime) {
  search::RunFigures f;
  f.cost_usd = 1000;
  f.time_to_train_seconds = 86400;
  f.goodput_time_seconds = 1.2 * 86400;
  search::RunLimits limits;
  EXPECT_EQ(search::broken_limit(limits, search::Objective::time, f), "");
  limits.budget_usd = 999;
  EXPECT_EQ(search::broken_limit(limits, search::Objective::time, f), "over budget");
  limits.budget_usd = 1000;
  limits.deadline_seconds = 1.1 * 86400;
  EXPECT_EQ(search::broken_limit(limits, search::Objective::time, f), "");
  EXPECT_EQ(search::broken_limit(limits, search::Objective::goodput_time, f), "past the deadline");
}
