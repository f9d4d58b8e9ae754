#pragma once
// What the simulation measured, as the TCO model needs it: one iteration's simulated time and IT
// energy (reduced over all ranks), and how many iterations the whole training run has.
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::tco {

// IT energy (before PUE) by component class, joules. Convert the exact power::Energy totals with
// joules() once, after the reduction over ranks.
struct EnergyByClass {
  double accelerators = 0;
  double hosts = 0;
  double nics = 0;
  double switches = 0;  // scale-up and scale-out
  double optics = 0;    // transceivers at the ends of cables between racks
  double other = 0;     // anything else (storage, ...; a whole system's power given per device)
  [[nodiscard]] double total() const noexcept { return accelerators + hosts + nics + switches + optics + other; }
};

struct RunMeasures {
  pdes::SimTime iteration_time = 0;          // simulated time of one iteration, ps
  std::uint64_t iterations = 0;              // in the whole run; 0: ceil(token_budget / tokens_per_iteration)
  std::uint64_t tokens_per_iteration = 0;    // global batch x sequence length; 0: no per-token figures
  std::uint64_t devices = 0;                 // accelerators running the job; 0: TcoInputs counts.accelerators
  EnergyByClass it_joules_per_iteration;
};

// ceil(token_budget / tokens_per_iteration); throws std::invalid_argument when tokens_per_iteration is 0.
[[nodiscard]] std::uint64_t iterations_for_tokens(std::uint64_t token_budget, std::uint64_t tokens_per_iteration);

}  // namespace rackscale::models::tco
