#pragma once
// Variability of a device's compute inside an iteration (issue 26, item 1): a per-device speed factor
// (drawn from a distribution, or named for chosen slow devices) that stretches every compute op of the
// device, and launch/OS jitter added to every kernel.
//
// Every draw is a pure function of the run's seed and what it is for, never of the rank, the LP order
// or what else was drawn: a device's factor is Philox2x64-10 at counter {0, device} under a key derived
// from (seed, "speed"); the jitter of kernel j of op i in iteration n on device d is drawn from the block
// at counter {n << 32 | i, d << 24 | j} under a key derived from (seed, "jitter"). So results are
// identical for any rank count and partitioner, and a checkpoint needs to save nothing.
#include <cstdint>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::accelerator {

enum class SpeedDistribution : std::uint8_t {
  none,       // every device at its preset's speed (1)
  lognormal,  // factor = exp(sigma Z - sigma^2 / 2), Z standard normal: mean 1, so variability slows the
              // job only through synchronization, not through more work on average
};

enum class JitterDistribution : std::uint8_t {
  none,
  exponential,  // per kernel, exponential of the given mean
  lognormal,    // per kernel, lognormal of the given mean and sigma (of the underlying normal)
};

// A device named slow by the config: its factor multiplies the distribution's draw.
struct SlowDevice {
  std::uint32_t device = 0;
  double factor = 1.0;  // > 0; 1.5 = every compute op takes 1.5 times as long
};

struct VariabilitySpec {
  SpeedDistribution speed = SpeedDistribution::none;
  double speed_sigma = 0;
  std::vector<SlowDevice> slow;
  JitterDistribution jitter = JitterDistribution::none;
  pdes::SimTime jitter_mean = 0;  // per kernel
  double jitter_sigma = 1.0;      // lognormal jitter only
  // Whether `rackscale run` also simulates the same job without any variability (nor degraded links)
  // to report the slowdown against it.
  bool perfect_baseline = true;

  [[nodiscard]] bool any() const noexcept {
    return (speed != SpeedDistribution::none && speed_sigma > 0) || !slow.empty() ||
           (jitter != JitterDistribution::none && jitter_mean > 0);
  }
};

// The speed factor of `device` (1 without variability): the distribution's draw times its slow factor.
[[nodiscard]] double speed_factor(const VariabilitySpec& spec, std::uint64_t seed, std::uint32_t device);

// What one device's compute ops take under the spec: its factor, and the jitter of each kernel.
class ComputeVariation {
 public:
  ComputeVariation() = default;  // none
  ComputeVariation(const VariabilitySpec& spec, std::uint64_t seed, std::uint32_t device);

  [[nodiscard]] bool active() const noexcept { return factor_ != 1.0 || jitter_ != JitterDistribution::none; }
  [[nodiscard]] double factor() const noexcept { return factor_; }
  // The duration of op `op` of iteration `iteration`, of `kernels` kernels, that takes `perfect` without
  // variability: perfect x factor (rounded to the picosecond) plus each kernel's jitter.
  [[nodiscard]] pdes::SimTime duration(pdes::SimTime perfect, std::uint32_t iteration, OpIndex op,
                                       std::uint32_t kernels) const noexcept;
  // The jitter part alone.
  [[nodiscard]] pdes::SimTime jitter(std::uint32_t iteration, OpIndex op, std::uint32_t kernels) const noexcept;

 private:
  double factor_ = 1.0;
  JitterDistribution jitter_ = JitterDistribution::none;
  double jitter_mean_ps_ = 0;
  double jitter_mu_ = 0;     // lognormal: log of the median, in ps
  double jitter_sigma_ = 0;
  std::uint64_t jitter_key_ = 0;
  std::uint32_t device_ = 0;
};

}  // namespace rackscale::models::accelerator
