#include "models/accelerator/compute_variability.hpp"

#include <cmath>
#include <numbers>

#include <Random123/philox.h>

namespace rackscale::models::accelerator {
namespace {
using Philox = r123::Philox2x64;

// What the two keys are for, so that the factor and the jitter streams (and the LPs' own streams,
// keyed by the bare seed) never share a key.
constexpr std::uint64_t kSpeedStream = 0x5350'4545'4421'0001ULL;
constexpr std::uint64_t kJitterStream = 0x4A49'5454'4552'0002ULL;

// SplitMix64's finalizer (Steele, Lea and Flood 2014): a bijection that spreads (seed, stream) over the key.
std::uint64_t mix(std::uint64_t x) noexcept {
  x = (x ^ (x >> 30)) * 0xBF58'476D'1CE4'E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D0'49BB'1331'11EBULL;
  return x ^ (x >> 31);
}

std::uint64_t key_of(std::uint64_t seed, std::uint64_t stream) noexcept { return mix(mix(seed) ^ stream); }

Philox::ctr_type block(std::uint64_t key, std::uint64_t c0, std::uint64_t c1) noexcept {
  Philox philox;
  return philox(Philox::ctr_type{{c0, c1}}, Philox::key_type{{key}});
}

// Uniform on (0, 1] from a word: never 0, so its log is finite.
double uniform_open0(std::uint64_t word) noexcept {
  return static_cast<double>((word >> 11) + 1) * 0x1.0p-53;
}

// A standard normal from one block (Box and Muller 1958, the cosine half).
double standard_normal(const Philox::ctr_type& b) noexcept {
  const double radius = std::sqrt(-2.0 * std::log(uniform_open0(b.v[0])));
  return radius * std::cos(2.0 * std::numbers::pi * static_cast<double>(b.v[1] >> 11) * 0x1.0p-53);
}
// A non-negative duration in picoseconds, rounded half up: what std::llround gives for these values
// (all far below 2^52, where adding 0.5 is exact), without its library call on every compute op.
pdes::SimTime round_to_ps(double ps) noexcept { return static_cast<pdes::SimTime>(ps + 0.5); }
}  // namespace

double speed_factor(const VariabilitySpec& spec, std::uint64_t seed, std::uint32_t device) {
  double factor = 1.0;
  if (spec.speed == SpeedDistribution::lognormal && spec.speed_sigma > 0) {
    const double z = standard_normal(block(key_of(seed, kSpeedStream), 0, device));
    factor = std::exp(spec.speed_sigma * z - spec.speed_sigma * spec.speed_sigma / 2);
  }
  for (const SlowDevice& slow : spec.slow)
    if (slow.device == device) factor *= slow.factor;
  return factor;
}

ComputeVariation::ComputeVariation(const VariabilitySpec& spec, std::uint64_t seed, std::uint32_t device)
    : factor_(speed_factor(spec, seed, device)), device_(device) {
  if (spec.jitter == JitterDistribution::none || spec.jitter_mean == 0) return;
  jitter_ = spec.jitter;
  jitter_mean_ps_ = static_cast<double>(spec.jitter_mean);
  jitter_sigma_ = spec.jitter_sigma;
  // A lognormal of mean m: mu = ln m - sigma^2 / 2.
  jitter_mu_ = std::log(jitter_mean_ps_) - jitter_sigma_ * jitter_sigma_ / 2;
  jitter_key_ = key_of(seed, kJitterStream);
}

pdes::SimTime ComputeVariation::jitter(std::uint32_t iteration, OpIndex op, std::uint32_t kernels) const noexcept {
  if (jitter_ == JitterDistribution::none) return 0;
  const std::uint64_t c0 = static_cast<std::uint64_t>(iteration) << 32 | op;
  const auto block_of = [&](std::uint32_t j) {
    return block(jitter_key_, c0, static_cast<std::uint64_t>(device_) << 24 | j);
  };
  if (jitter_ == JitterDistribution::exponential) {
    // The sum of the kernels' -mean ln(u_j) is -mean ln(prod u_j): one logarithm per op instead of one
    // per kernel (it was a tenth of a straggler run's time). The product is folded into the sum before it
    // could leave the normal doubles (each u_j >= 2^-53, so 16 factors stay above 2^-848).
    double sum = 0;
    double product = 1;
    for (std::uint32_t j = 0; j < kernels; ++j) {
      product *= uniform_open0(block_of(j).v[0]);
      if ((j & 15U) == 15U) {
        sum -= std::log(product);
        product = 1;
      }
    }
    sum -= std::log(product);
    return round_to_ps(jitter_mean_ps_ * sum);
  }
  double sum = 0;
  for (std::uint32_t j = 0; j < kernels; ++j) sum += std::exp(jitter_mu_ + jitter_sigma_ * standard_normal(block_of(j)));
  return round_to_ps(sum);
}

pdes::SimTime ComputeVariation::duration(pdes::SimTime perfect, std::uint32_t iteration, OpIndex op,
                                         std::uint32_t kernels) const noexcept {
  const pdes::SimTime stretched =
      factor_ == 1.0 ? perfect : round_to_ps(static_cast<double>(perfect) * factor_);
  return stretched + jitter(iteration, op, kernels);
}

}  // namespace rackscale::models::accelerator
