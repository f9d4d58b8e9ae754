// The generic JSON writer of a run's statistics (io/statistics_figures): every reduced figure, by the
// name it was declared with, shaped by its kind, in declaration order.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "io/statistics_figures.hpp"
#include "pdes/log_buckets.hpp"

namespace {

using rackscale::pdes::Combine;
using rackscale::pdes::ReducedStatistic;
using rackscale::pdes::ReducedStatistics;
using rackscale::pdes::StatisticShape;

TEST(StatisticsJson, EveryFigureByItsNameShapedByItsKind) {
  // A histogram's values: the buckets, then count, sum, min, max. Samples 5, 5 and 200.
  std::vector<std::uint64_t> histogram(rackscale::pdes::kLogBuckets + 4, 0);
  histogram[rackscale::pdes::log_bucket_of(5)] = 2;
  histogram[rackscale::pdes::log_bucket_of(200)] = 1;
  histogram[rackscale::pdes::kLogBuckets] = 3;
  histogram[rackscale::pdes::kLogBuckets + 1] = 210;
  histogram[rackscale::pdes::kLogBuckets + 2] = 5;
  histogram[rackscale::pdes::kLogBuckets + 3] = 200;
  const ReducedStatistics statistics({
      {{"last_ps", "ps", "a scalar", StatisticShape::values, Combine::max, 1}, {42}},
      {{"by_stage_ps", "ps", "rows", StatisticShape::values, Combine::sum, 3}, {1, 2, 3}},
      {{"latency_ps", "ps", "a histogram", StatisticShape::histogram, Combine::sum, 1}, histogram},
  });
  const auto json = rackscale::io::statistics_json(statistics);
  EXPECT_EQ(json.dump(),
            R"({"last_ps":42,"by_stage_ps":[1,2,3],"latency_ps":{"count":3,"sum":210,"min":5,"max":200,"p50":5,"p99":200}})");
}

TEST(StatisticsJson, NoStatisticsIsAnEmptyObject) {
  EXPECT_EQ(rackscale::io::statistics_json(ReducedStatistics()).dump(), "{}");
}

}  // namespace
