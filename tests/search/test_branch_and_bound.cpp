// Branch and bound (app/layout_search.cpp, docs/search.md): a search that skips the layouts whose floor
// (search/iteration_bound.hpp) cannot reach its best must rank exactly the layouts, with exactly the
// figures, that estimating every survivor ranks first, for the time, cost and goodput_time objectives
// (goodput_time's floor: search::floor_score), on laptop-64
// and on Llama 3 70B on 1,024 H100s; and it must skip most of the space.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/layout_search.hpp"
#include "io/config/scenario_loader.hpp"

namespace {
namespace app = rackscale::app;

void same_best(const std::string& config, const std::string& space, rackscale::search::Objective objective,
               std::uint32_t top, bool expect_skips) {
  const boost::mpi::communicator world;
  const auto scenario = rackscale::io::load_scenario(config, {});
  app::SearchOptions options;
  options.space = space;
  options.objective = objective;
  options.simulate = 0;
  options.top = top;
  const auto quiet = [](const std::string&) {};
  const app::SearchResult bounded = app::run_search(world, scenario, options, quiet);
  options.exhaustive = true;
  const app::SearchResult every = app::run_search(world, scenario, options, quiet);
  EXPECT_EQ(every.skipped, 0u);
  if (expect_skips) {
    EXPECT_GT(bounded.skipped, every.ranked.size() / 2);
  }
  EXPECT_EQ(bounded.ranked.size() + bounded.skipped, every.ranked.size());
  ASSERT_GE(bounded.ranked.size(), top);
  for (std::uint32_t i = 0; i < top; ++i) {
    EXPECT_EQ(bounded.ranked[i].candidate.index, every.ranked[i].candidate.index) << "rank " << i + 1;
    EXPECT_EQ(bounded.ranked[i].estimate.iteration, every.ranked[i].estimate.iteration) << "rank " << i + 1;
    EXPECT_EQ(bounded.ranked[i].figures.cost_usd, every.ranked[i].figures.cost_usd) << "rank " << i + 1;
    EXPECT_EQ(bounded.ranked[i].figures.goodput_time_seconds, every.ranked[i].figures.goodput_time_seconds)
        << "rank " << i + 1;
  }
  std::printf("%s: %zu of %zu estimated, the best %u identical\n", config.c_str(), bounded.ranked.size(),
              every.ranked.size(), top);
}

// Estimating every survivor of the full laptop space (12,384 layouts) ran over 75 minutes under ASan on 2
// shared cores (docs/reliability.md, fifth attempt): there the test searches a smaller space, and leaves
// the 1,024-device case to the Release build.
#ifdef RACKSCALE_UNDER_ASAN
constexpr const char* kLaptopSpace = "tensor=1,2,4 pipeline=1,2 virtual=1 context=1 micro_batch=1,2 zero=1,3 "
                                     "recompute=none,full";
#else
constexpr const char* kLaptopSpace =
    "tensor=1,2,4,8 pipeline=1,2,4 virtual=1,2 context=1,2 micro_batch=1,2,4 zero=0,1,3 "
    "recompute=none,selective,full";
#endif

}  // namespace

TEST(BranchAndBound, LaptopBestByTimeAsEstimatingEverything) {
  same_best(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", kLaptopSpace,
            rackscale::search::Objective::time, 12, true);
}

TEST(BranchAndBound, LaptopBestByCostAsEstimatingEverything) {
  same_best(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", kLaptopSpace,
            rackscale::search::Objective::cost, 5, true);
}

TEST(BranchAndBound, LaptopBestByGoodputTimeAsEstimatingEverything) {
  same_best(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", kLaptopSpace,
            rackscale::search::Objective::goodput_time, 12, true);
}

TEST(BranchAndBound, SeventyBillionBestAsEstimatingEverything) {
#ifdef RACKSCALE_UNDER_ASAN
  GTEST_SKIP() << "left to the Release build: hours under AddressSanitizer (kLaptopSpace above)";
#endif
  same_best(RACKSCALE_SOURCE_DIR "/configs/training/llama3-70b-1024-h100.yaml",
            "tensor=2,4,8 pipeline=4,8,16 virtual=1,5 context=1,2 micro_batch=1,2 zero=1 "
            "recompute=selective,full sequence_parallel=on",
            rackscale::search::Objective::time, 4, false);
}

// --budget and --deadline (issue 25): on laptop-64's small space, a budget and a deadline between the
// layouts' costs and times drop exactly the layouts over them, counted by rule in the pruning report, and
// branch and bound still ranks first the best of those within both (the filtered exhaustive list).
TEST(BranchAndBound, LimitsDropExactlyTheLayoutsOverThem) {
  const boost::mpi::communicator world;
  const auto scenario = rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", {});
  app::SearchOptions options;
  options.space = "tensor=1,2,4 pipeline=1,2 micro_batch=1,2 zero=1 recompute=selective,full";
  options.simulate = 0;
  options.exhaustive = true;
  options.top = 3;
  const auto quiet = [](const std::string&) {};
  const app::SearchResult every = app::run_search(world, scenario, options, quiet);
  ASSERT_GE(every.ranked.size(), 6u);
  // A budget below the most expensive third and a deadline below the slowest third, by the unlimited list.
  std::vector<double> costs, times;
  for (const auto& r : every.ranked) {
    costs.push_back(r.figures.cost_usd);
    times.push_back(r.figures.time_to_train_seconds);
  }
  std::sort(costs.begin(), costs.end());
  std::sort(times.begin(), times.end());
  options.limits.budget_usd = costs[costs.size() * 2 / 3];
  options.limits.deadline_seconds = times[times.size() * 2 / 3];
  std::vector<std::uint64_t> within;
  std::uint64_t over_budget = 0, late = 0;
  for (const auto& r : every.ranked) {  // by time: the first rule broken counts
    if (r.figures.cost_usd > *options.limits.budget_usd) ++over_budget;
    else if (r.figures.time_to_train_seconds > *options.limits.deadline_seconds) ++late;
    else within.push_back(r.candidate.index);
  }
  ASSERT_GT(over_budget, 0u);
  ASSERT_GT(late, 0u);
  ASSERT_GE(within.size(), options.top);
  for (const bool exhaustive : {true, false}) {
    options.exhaustive = exhaustive;
    const app::SearchResult limited = app::run_search(world, scenario, options, quiet);
    if (exhaustive) {
      EXPECT_EQ(limited.pruned.at("over budget"), over_budget);
      EXPECT_EQ(limited.pruned.at("past the deadline"), late);
      EXPECT_EQ(limited.ranked.size(), within.size());
    }
    for (std::uint32_t i = 0; i < options.top; ++i)
      EXPECT_EQ(limited.ranked[i].candidate.index, within[i]) << "rank " << i + 1 << (exhaustive ? "" : ", bounded");
  }
}

// SearchOptions::estimate_below (tests/search/test_megatron_search.cpp ranks a published layout with it):
// branch and bound with top 1 and a score between the layouts' estimates ranks, in the same order and with
// the same estimates, every layout that estimating everything ranks below that score, and skips others.
TEST(BranchAndBound, EstimateBelowKeepsEveryLayoutUnderTheScore) {
  const boost::mpi::communicator world;
  const auto scenario = rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", {});
  app::SearchOptions options;
  options.space = "tensor=1,2,4 pipeline=1,2 micro_batch=1,2 zero=1 recompute=selective,full";
  options.simulate = 0;
  options.top = 1;
  options.exhaustive = true;
  const auto quiet = [](const std::string&) {};
  const app::SearchResult every = app::run_search(world, scenario, options, quiet);
  ASSERT_GE(every.ranked.size(), 8u);
  const auto score = [](const app::RankedLayout& l) {
    return rackscale::search::score(rackscale::search::Objective::time, l.figures);
  };
  // The score of the layout halfway down: every layout before it scores below it (ties aside).
  const std::size_t half = every.ranked.size() / 2;
  options.exhaustive = false;
  options.estimate_below = score(every.ranked[half]);
  const app::SearchResult bounded = app::run_search(world, scenario, options, quiet);
  std::size_t below = 0;
  while (below < every.ranked.size() && score(every.ranked[below]) < options.estimate_below) ++below;
  ASSERT_GE(below, 2u);
  ASSERT_GE(bounded.ranked.size(), below);
  for (std::size_t i = 0; i < below; ++i) {
    EXPECT_EQ(bounded.ranked[i].candidate.index, every.ranked[i].candidate.index) << "rank " << i + 1;
    EXPECT_EQ(bounded.ranked[i].estimate.iteration, every.ranked[i].estimate.iteration) << "rank " << i + 1;
  }
  EXPECT_GT(bounded.skipped, 0u);
}
