// Statistics as an engine service (pdes/statistic_registry): each figure declared once, recorded by
// whichever rank owns the LP, reduced over ranks in one collective to the same values as if one rank
// had recorded everything.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "pdes/log_buckets.hpp"
#include "pdes/statistic_registry.hpp"

namespace {

using rackscale::pdes::Combine;
using rackscale::pdes::ReducedStatistics;
using rackscale::pdes::StatisticRegistry;

constexpr std::uint64_t kSamples = 1000;

// Sample k of the histogram: spread over eight octaves, not in order.
std::uint64_t sample(std::uint64_t k) { return (k * 7919) % 100'000 + 3; }

// Declares the same four statistics and records the share of `owner`-th of `owners` owners: the sample
// k, the device rows r, go to owner k % owners, r % owners.
ReducedStatistics record_share(const boost::mpi::communicator& comm, int owner, int owners) {
  StatisticRegistry registry;
  auto bytes = registry.values("bytes_sent", "bytes", "bytes every device sent", Combine::sum, 4);
  auto first = registry.values("first_arrival_ps", "ps", "earliest arrival", Combine::min);
  auto last = registry.values("last_arrival_ps", "ps", "latest arrival", Combine::max);
  auto latency = registry.histogram("message_latency_ps", "ps", "per-message latency");
  for (std::uint64_t row = 0; row < 4; ++row) {
    if (static_cast<int>(row % static_cast<std::uint64_t>(owners)) == owner) bytes.record(1000 * (row + 1), row);
  }
  for (std::uint64_t k = 0; k < kSamples; ++k) {
    if (static_cast<int>(k % static_cast<std::uint64_t>(owners)) != owner) continue;
    latency.sample(sample(k));
    first.record(sample(k));
    last.record(sample(k));
    bytes.record(1, k % 4);
  }
  return registry.reduce(comm);
}

TEST(StatisticRegistry, ReducesToWhatOneRankRecordingEverythingGets) {
  const boost::mpi::communicator world;
  const ReducedStatistics spread = record_share(world, world.rank(), world.size());
  const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
  const ReducedStatistics alone = record_share(self, 0, 1);
  ASSERT_EQ(spread.all().size(), alone.all().size());
  for (std::size_t s = 0; s < spread.all().size(); ++s) {
    EXPECT_EQ(spread.all()[s].values, alone.all()[s].values) << spread.all()[s].spec.name;
  }
  // And the values themselves, by hand: row r gets 1000 (r + 1) plus its 250 samples.
  EXPECT_EQ(spread["bytes_sent"].values, (std::vector<std::uint64_t>{1250, 2250, 3250, 4250}));
  std::uint64_t smallest = ~std::uint64_t{0}, largest = 0, sum = 0;
  for (std::uint64_t k = 0; k < kSamples; ++k) {
    smallest = std::min(smallest, sample(k));
    largest = std::max(largest, sample(k));
    sum += sample(k);
  }
  EXPECT_EQ(spread["first_arrival_ps"].values.at(0), smallest);
  EXPECT_EQ(spread["last_arrival_ps"].values.at(0), largest);
  const auto& latency = spread["message_latency_ps"];
  EXPECT_EQ(latency.sample_count(), kSamples);
  EXPECT_EQ(latency.sample_sum(), sum);
  EXPECT_EQ(latency.sample_min(), smallest);
  EXPECT_EQ(latency.sample_max(), largest);
  // The median's bucket: the 500th smallest sample's bucket floor.
  std::vector<std::uint64_t> sorted;
  for (std::uint64_t k = 0; k < kSamples; ++k) sorted.push_back(sample(k));
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(latency.quantile(0.5), rackscale::pdes::log_bucket_low(rackscale::pdes::log_bucket_of(sorted[499])));
}

// A histogram kept by a model in the same buckets (a traffic run's completion times) merges into a
// declared histogram as if each of its samples had been recorded there.
TEST(StatisticRegistry, MergedBucketCountsEqualTheSamplesRecordedOneByOne) {
  const boost::mpi::communicator world;
  StatisticRegistry registry;
  auto one_by_one = registry.histogram("one_by_one_ps", "ps", "sampled");
  auto merged = registry.histogram("merged_ps", "ps", "merged");
  auto nothing = registry.histogram("nothing_ps", "ps", "merged, empty");
  std::vector<std::uint64_t> counts(rackscale::pdes::kLogBuckets, 0);
  std::uint64_t count = 0, sum = 0, smallest = ~std::uint64_t{0}, largest = 0;
  for (std::uint64_t k = static_cast<std::uint64_t>(world.rank()); k < kSamples; k += static_cast<std::uint64_t>(world.size())) {
    one_by_one.sample(sample(k));
    ++counts[rackscale::pdes::log_bucket_of(sample(k))];
    ++count;
    sum += sample(k);
    smallest = std::min(smallest, sample(k));
    largest = std::max(largest, sample(k));
  }
  merged.merge_samples(counts, count, sum, smallest, largest);
  // An empty histogram's minimum and maximum are whatever its keeper holds: ignored.
  nothing.merge_samples(std::vector<std::uint64_t>(rackscale::pdes::kLogBuckets, 0), 0, 0, 0, 12345);
  const ReducedStatistics reduced = registry.reduce(world);
  EXPECT_EQ(reduced["merged_ps"].values, reduced["one_by_one_ps"].values);
  EXPECT_EQ(reduced["merged_ps"].sample_count(), kSamples);
  EXPECT_EQ(reduced["nothing_ps"].sample_count(), 0U);
  EXPECT_EQ(reduced["nothing_ps"].sample_max(), 0U);
  EXPECT_THROW(merged.merge_samples(std::vector<std::uint64_t>(3, 0), 0, 0, 0, 0), std::invalid_argument);
  auto scalar = registry.values("scalar", "", "a value", Combine::sum);
  EXPECT_THROW(scalar.merge_samples(counts, count, sum, smallest, largest), std::logic_error);
}

TEST(StatisticRegistry, AMinimumNobodyRecordedStaysUnset) {
  const boost::mpi::communicator world;
  StatisticRegistry registry;
  (void)registry.values("never_ps", "ps", "never recorded", Combine::min);
  auto empty = registry.histogram("empty_ps", "ps", "no samples");
  (void)empty;
  const ReducedStatistics reduced = registry.reduce(world);
  EXPECT_EQ(reduced["never_ps"].values.at(0), ~std::uint64_t{0});
  EXPECT_EQ(reduced["empty_ps"].sample_count(), 0U);
  EXPECT_EQ(reduced["empty_ps"].sample_min(), 0U);
  EXPECT_EQ(reduced["empty_ps"].quantile(0.99), 0U);
  EXPECT_THROW((void)reduced["absent"], std::out_of_range);
}

TEST(StatisticRegistry, RefusesRepeatedNamesAndRanksThatDeclaredDifferently) {
  StatisticRegistry registry;
  (void)registry.values("calls", "", "calls", Combine::sum);
  EXPECT_THROW((void)registry.values("calls", "", "again", Combine::sum), std::invalid_argument);
  EXPECT_THROW((void)registry.values("rows", "", "no rows", Combine::sum, 0), std::invalid_argument);

  const boost::mpi::communicator world;
  if (world.size() < 2) GTEST_SKIP() << "needs two ranks to declare differently";
  StatisticRegistry uneven;
  (void)uneven.values("calls", "", "calls", Combine::sum);
  if (world.rank() == 1) (void)uneven.values("extra", "", "only on rank 1", Combine::sum);
  EXPECT_THROW((void)uneven.reduce(world), std::logic_error);
  // Same counts, different names: the declarations' hash differs.
  StatisticRegistry renamed;
  (void)renamed.values(world.rank() == 1 ? "other" : "calls", "", "calls", Combine::sum);
  EXPECT_THROW((void)renamed.reduce(world), std::logic_error);
}

}  // namespace
