// Compute variability (models/accelerator/compute_variability.hpp): each draw a pure function of the seed
// and what it is for, the distributions' means where the config says they are, slow devices' factors
// multiplying the draw.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "models/accelerator/compute_variability.hpp"
#include "pdes/time.hpp"

namespace acc = rackscale::models::accelerator;
namespace pdes = rackscale::pdes;

namespace {
acc::VariabilitySpec lognormal(double sigma) {
  acc::VariabilitySpec spec;
  spec.speed = acc::SpeedDistribution::lognormal;
  spec.speed_sigma = sigma;
  return spec;
}
}  // namespace

TEST(ComputeVariability, NoneIsExactlyThePerfectDuration) {
  const acc::ComputeVariation none(acc::VariabilitySpec{}, 7, 3);
  EXPECT_FALSE(none.active());
  EXPECT_EQ(none.duration(123'456'789, 0, 5, 4), 123'456'789u);
}

// A device's factor depends on (seed, device) only: the same in any order of asking, different for
// another seed or device.
TEST(ComputeVariability, AFactorIsAPureFunctionOfSeedAndDevice) {
  const acc::VariabilitySpec spec = lognormal(0.1);
  std::vector<double> forward, backward(1000);
  for (std::uint32_t d = 0; d < 1000; ++d) forward.push_back(acc::speed_factor(spec, 42, d));
  for (std::uint32_t d = 1000; d-- > 0;) backward[d] = acc::speed_factor(spec, 42, d);
  EXPECT_EQ(forward, backward);
  EXPECT_NE(acc::speed_factor(spec, 42, 1), acc::speed_factor(spec, 43, 1));
  EXPECT_NE(forward[1], forward[2]);
}

// exp(sigma Z - sigma^2 / 2) has mean 1 and log-standard deviation sigma: over 20,000 devices, both within
// four standard errors.
TEST(ComputeVariability, LognormalFactorsHaveMeanOneAndTheirSigma) {
  const double sigma = 0.02;
  const acc::VariabilitySpec spec = lognormal(sigma);
  const int n = 20'000;
  double sum = 0, log_sum = 0, log_square = 0;
  for (int d = 0; d < n; ++d) {
    const double f = acc::speed_factor(spec, 1, static_cast<std::uint32_t>(d));
    sum += f;
    log_sum += std::log(f);
    log_square += std::log(f) * std::log(f);
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 1.0, 4 * sigma / std::sqrt(n));
  const double log_mean = log_sum / n;
  const double log_sd = std::sqrt(log_square / n - log_mean * log_mean);
  EXPECT_NEAR(log_sd, sigma, 4 * sigma / std::sqrt(2.0 * n));
}

TEST(ComputeVariability, ASlowDeviceMultipliesItsDraw) {
  acc::VariabilitySpec spec = lognormal(0.05);
  const double drawn = acc::speed_factor(spec, 9, 17);
  spec.slow.push_back({17, 1.5});
  EXPECT_DOUBLE_EQ(acc::speed_factor(spec, 9, 17), drawn * 1.5);
  EXPECT_DOUBLE_EQ(acc::speed_factor(spec, 9, 16), acc::speed_factor(lognormal(0.05), 9, 16));
  acc::VariabilitySpec only_slow;
  only_slow.slow.push_back({2, 1.25});
  const acc::ComputeVariation slow(only_slow, 9, 2);
  EXPECT_EQ(slow.duration(1'000'000, 0, 0, 1), 1'250'000u);
  EXPECT_EQ(acc::ComputeVariation(only_slow, 9, 3).duration(1'000'000, 0, 0, 1), 1'000'000u);
}

// Exponential and lognormal jitter per kernel: means within four standard errors over 200,000 kernels;
// an op of k kernels draws k of them; each (iteration, op) draws its own.
TEST(ComputeVariability, JitterHasItsMeanPerKernel) {
  for (const auto distribution : {acc::JitterDistribution::exponential, acc::JitterDistribution::lognormal}) {
    acc::VariabilitySpec spec;
    spec.jitter = distribution;
    spec.jitter_mean = 5 * pdes::kMicrosecond;
    spec.jitter_sigma = 0.5;
    const acc::ComputeVariation v(spec, 3, 11);
    ASSERT_TRUE(v.active());
    const int ops = 100'000;
    double sum = 0;
    for (int i = 0; i < ops; ++i) sum += static_cast<double>(v.jitter(1, static_cast<acc::OpIndex>(i), 2));
    const double per_kernel = sum / (2.0 * ops);
    // Standard deviation of one kernel's jitter: the mean (exponential); mean x sqrt(e^(sigma^2) - 1) (lognormal).
    const double sd = distribution == acc::JitterDistribution::exponential
                          ? 5e6
                          : 5e6 * std::sqrt(std::exp(0.25) - 1.0);
    EXPECT_NEAR(per_kernel, 5e6, 4 * sd / std::sqrt(2.0 * ops));
    EXPECT_NE(v.jitter(0, 7, 1), v.jitter(1, 7, 1));
    EXPECT_NE(v.jitter(0, 7, 1), v.jitter(0, 8, 1));
    EXPECT_EQ(v.jitter(0, 7, 1), acc::ComputeVariation(spec, 3, 11).jitter(0, 7, 1));
    EXPECT_NE(v.jitter(0, 7, 1), acc::ComputeVariation(spec, 3, 12).jitter(0, 7, 1));
    // Kernel 0 of a two-kernel op is the one-kernel op's draw.
    EXPECT_GT(v.jitter(0, 7, 2), v.jitter(0, 7, 1));
    EXPECT_EQ(v.duration(1000, 0, 7, 1), 1000 + v.jitter(0, 7, 1));
  }
}
