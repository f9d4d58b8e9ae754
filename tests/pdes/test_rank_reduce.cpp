// Unsigned 64-bit minimum and maximum over ranks, including kNever (2^64 - 1), which a signed
// comparison would take for -1 (see src/pdes/rank_reduce.hpp).
#include <array>
#include <cstdint>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "pdes/rank_reduce.hpp"
#include "pdes/time.hpp"

using rackscale::pdes::kNever;

TEST(RankReduce, MinimumAndMaximumCompareUnsigned) {
  const boost::mpi::communicator world;
  const int r = world.rank();
  const int n = world.size();
  // Rank 0 holds kNever; rank k > 0 holds 2^63 + 100 - k, above every signed value.
  const std::uint64_t mine = r == 0 ? kNever : (std::uint64_t{1} << 63) + 100 - static_cast<std::uint64_t>(r);
  const std::uint64_t expected_min = n == 1 ? kNever : (std::uint64_t{1} << 63) + 100 - static_cast<std::uint64_t>(n - 1);
  EXPECT_EQ(rackscale::pdes::min_over_ranks(world, mine), expected_min);
  EXPECT_EQ(rackscale::pdes::max_over_ranks(world, mine), kNever);
  EXPECT_EQ(rackscale::pdes::max_over_ranks(world, static_cast<std::uint64_t>(r)), static_cast<std::uint64_t>(n - 1));

  const std::array<std::uint64_t, 2> in{mine, static_cast<std::uint64_t>(r + 5)};
  std::array<std::uint64_t, 2> out{};
  rackscale::pdes::min_over_ranks(world, in, out);
  EXPECT_EQ(out[0], expected_min);
  EXPECT_EQ(out[1], 5u);
}

// Records of 64-bit fields reduced field by field, each record on its own: the sums, minima and maxima of
// values each rank derives from its number, against their closed forms.
TEST(RankReduce, RecordsReduceFieldByField) {
  const boost::mpi::communicator world;
  const auto r = static_cast<std::uint64_t>(world.rank());
  const auto n = static_cast<std::uint64_t>(world.size());
  struct Figures {
    std::uint64_t count, time, wait;
  };
  // Record i on rank r: count r + i, time kNever - r (above every signed value), wait 10 i.
  const std::array<Figures, 2> mine{{{r, kNever - r, 0}, {r + 1, kNever - r, 10}}};
  std::array<Figures, 2> sum{}, low{}, high{};
  rackscale::pdes::reduce_records_to_all<Figures>(world, mine, sum, rackscale::pdes::Reduction::sum);
  rackscale::pdes::reduce_records_to_all<Figures>(world, mine, low, rackscale::pdes::Reduction::min);
  rackscale::pdes::reduce_records_to_all<Figures>(world, mine, high, rackscale::pdes::Reduction::max);
  EXPECT_EQ(sum[0].count, n * (n - 1) / 2);
  EXPECT_EQ(sum[1].count, n * (n - 1) / 2 + n);
  EXPECT_EQ(sum[1].wait, 10 * n);
  EXPECT_EQ(low[0].time, kNever - (n - 1));
  EXPECT_EQ(high[0].time, kNever);
  EXPECT_EQ(low[1].count, 1u);
  EXPECT_EQ(high[1].count, n);
  EXPECT_EQ(high[0].wait, 0u);
  const Figures one = rackscale::pdes::reduce_record_to_all(world, mine[1], rackscale::pdes::Reduction::max);
  EXPECT_EQ(one.count, n);
  EXPECT_EQ(one.wait, 10u);
}
