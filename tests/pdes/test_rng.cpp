// Counter-based random numbers: a pure function of (seed, LP id, draw index), checked against
// Random123's Philox directly, and the distributions against their closed-form moments.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include <Random123/philox.h>
#include <gtest/gtest.h>

#include "pdes/rng.hpp"

using rackscale::pdes::CounterRng;

TEST(CounterRng, DrawIsPhiloxOfSeedLpAndCounter) {
  CounterRng rng(42, 7);
  r123::Philox2x64 philox;
  for (std::uint64_t block = 0; block < 100; ++block) {
    const auto expected = philox(r123::Philox2x64::ctr_type{{block, 7}}, r123::Philox2x64::key_type{{42}});
    EXPECT_EQ(rng.next_u64(), expected.v[0]) << "block " << block;
    EXPECT_EQ(rng.next_u64(), expected.v[1]) << "block " << block;
  }
  EXPECT_EQ(rng.blocks_used(), 100u);
}

TEST(CounterRng, StreamsDependOnlyOnSeedAndLp) {
  CounterRng a(1, 5), b(1, 5), other_lp(1, 6), other_seed(2, 5);
  std::vector<std::uint64_t> draws;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    draws.push_back(x);
  }
  int same_lp = 0, same_seed = 0;
  for (int i = 0; i < 1000; ++i) {
    same_lp += other_lp.next_u64() == draws[static_cast<std::size_t>(i)];
    same_seed += other_seed.next_u64() == draws[static_cast<std::size_t>(i)];
  }
  EXPECT_EQ(same_lp, 0);
  EXPECT_EQ(same_seed, 0);
}

TEST(CounterRng, UniformOpenAtZeroNeverZeroAndHasMeanHalf) {
  CounterRng rng(3, 0);
  constexpr int n = 1'000'000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform_open0();
    ASSERT_GT(u, 0.0);
    ASSERT_LE(u, 1.0);
    sum += u;
  }
  // Mean 1/2, standard deviation of the mean sqrt(1/12 / n); allow 5 of them.
  EXPECT_NEAR(sum / n, 0.5, 5.0 * std::sqrt(1.0 / 12.0 / n));
}

TEST(CounterRng, ExponentialHasItsMeanAndVariance) {
  CounterRng rng(9, 123);
  constexpr int n = 1'000'000;
  constexpr double mean = 800.0;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.exponential(mean);
    ASSERT_GE(x, 0.0);
    sum += x;
    sum_sq += x * x;
  }
  const double m = sum / n;
  EXPECT_NEAR(m, mean, 5.0 * mean / std::sqrt(n));  // sd of the mean = mean / sqrt(n)
  const double variance = sum_sq / n - m * m;
  EXPECT_NEAR(variance / (mean * mean), 1.0, 0.02);  // Var = mean^2
}

// The ziggurat's tables are computed, so a wrong layer shows as too many or too few draws between two
// abscissas: chi-square over 200 bins of equal probability under the exponential distribution
// function, and separate counts beyond the ziggurat's tail start (7.697) and far out in the tail.
TEST(CounterRng, ExponentialFollowsItsDistributionFunction) {
  CounterRng rng(17, 4);
  constexpr int n = 4'000'000;
  constexpr int bins = 200;
  std::vector<int> counts(bins, 0);
  int beyond_tail_start = 0, beyond_12 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.exponential(1.0);
    ASSERT_GE(x, 0.0);
    // F(x) = 1 - e^-x; bin k holds F in [k / bins, (k + 1) / bins).
    const auto bin = static_cast<int>((1.0 - std::exp(-x)) * bins);
    ++counts[static_cast<std::size_t>(std::min(bin, bins - 1))];
    beyond_tail_start += x >= 7.69711747013104972;
    beyond_12 += x >= 12.0;
  }
  double chi2 = 0;
  const double expected = static_cast<double>(n) / bins;
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  // 199 degrees of freedom: P(chi2 > 273) < 1e-4.
  EXPECT_LT(chi2, 273.0);
  // Poisson counts: expected n e^-x, allow 5 standard deviations.
  const double tail = n * std::exp(-7.69711747013104972);
  EXPECT_NEAR(beyond_tail_start, tail, 5 * std::sqrt(tail));
  const double far = n * std::exp(-12.0);
  EXPECT_NEAR(beyond_12, far, 5 * std::sqrt(far) + 1);
}

TEST(CounterRng, BelowIsInRangeAndUniform) {
  CounterRng rng(5, 1);
  constexpr std::uint64_t k = 10;
  constexpr int n = 1'000'000;
  std::vector<int> counts(k, 0);
  for (int i = 0; i < n; ++i) {
    const std::uint64_t x = rng.below(k);
    ASSERT_LT(x, k);
    ++counts[x];
  }
  // Chi-square with 9 degrees of freedom: P(chi2 > 33.7) < 1e-4.
  double chi2 = 0;
  for (int c : counts) chi2 += std::pow(c - n / static_cast<double>(k), 2) / (n / static_cast<double>(k));
  EXPECT_LT(chi2, 33.7);
  EXPECT_EQ(rng.below(1), 0u);
}
