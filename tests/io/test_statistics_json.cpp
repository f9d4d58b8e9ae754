// The generic JSON and text writers of a run's statistics (io/statistics_figures): every reduced figure,
// by the name it was declared with, shaped by its kind, in declaration order.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/statistics_figures.hpp"
#include "pdes/log_buckets.hpp"

namespace {

using rackscale::pdes::Combine;
using rackscale::pdes::ReducedStatistic;
using rackscale::pdes::ReducedStatistics;
using rackscale::pdes::StatisticShape;

// A histogram's values: the buckets, then count, sum, min, max. Samples 5, 5 and 200.
std::vector<std::uint64_t> three_samples() {
  std::vector<std::uint64_t> histogram(rackscale::pdes::kLogBuckets + 4, 0);
  histogram[rackscale::pdes::log_bucket_of(5)] = 2;
  histogram[rackscale::pdes::log_bucket_of(200)] = 1;
  histogram[rackscale::pdes::kLogBuckets] = 3;
  histogram[rackscale::pdes::kLogBuckets + 1] = 210;
  histogram[rackscale::pdes::kLogBuckets + 2] = 5;
  histogram[rackscale::pdes::kLogBuckets + 3] = 200;
  return histogram;
}

ReducedStatistics three_figures() {
  const std::vector<std::uint64_t> histogram = three_samples();
  return ReducedStatistics({
      {{"last_ps", "ps", "a scalar", StatisticShape::values, Combine::max, 1}, {42}},
      {{"by_stage_ps", "ps", "rows", StatisticShape::values, Combine::sum, 3}, {1, 2, 3}},
      {{"latency_ps", "ps", "a histogram", StatisticShape::histogram, Combine::sum, 1}, histogram},
  });
}

TEST(StatisticsJson, EveryFigureByItsNameShapedByItsKind) {
  const auto json = rackscale::io::statistics_json(three_figures());
  EXPECT_EQ(json.dump(),
            R"({"last_ps":42,"by_stage_ps":[1,2,3],"latency_ps":{"count":3,"sum":210,"min":5,"max":200,"p50":5,"p99":200}})");
}

TEST(StatisticsJson, NoStatisticsIsAnEmptyObject) {
  EXPECT_EQ(rackscale::io::statistics_json(ReducedStatistics()).dump(), "{}");
}

TEST(StatisticsText, OneLinePerFigureWithItsUnitsRuleAndDescription) {
  EXPECT_EQ(rackscale::io::statistics_text(three_figures()),
            "statistics: 3 figure(s), reduced over ranks\n"
            "  last_ps: 42 ps (maximum; a scalar)\n"
            "  by_stage_ps: [1, 2, 3] ps (sum, 3 rows; rows)\n"
            "  latency_ps: 3 samples, sum 210, min 5, p50 5, p99 200, max 200 ps (histogram; a histogram)\n");
}

TEST(StatisticsText, LongRowsAreCutAndCounted) {
  const ReducedStatistics statistics({
      {{"per_rank", "ops", "rows", StatisticShape::values, Combine::sum, 5}, {1000, 2, 3, 4, 5}},
  });
  EXPECT_EQ(rackscale::io::statistics_text(statistics, 2),
            "statistics: 1 figure(s), reduced over ranks\n  per_rank: [1,000, 2, ... 3 more] ops (sum, 5 rows; rows)\n");
  EXPECT_EQ(rackscale::io::statistics_text(ReducedStatistics()), "");
}

}  // namespace
