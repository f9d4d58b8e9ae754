#pragma once
// The random inter-arrival times of interruptions: draw `index` of class `cls` in replica `replica` is
// a pure function of (seed, replica, class, index) (Philox2x64-10, counter {index, replica << 32 | class},
// key {seed}), so a replica's interruptions do not depend on which rank simulates it, on the rank
// count, or on the other classes and replicas.
#include <cstdint>

#include "models/goodput/run_plan.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::goodput {

// Uniform on (0, 1].
[[nodiscard]] double failure_uniform(std::uint64_t seed, std::uint32_t replica, std::uint32_t cls, std::uint64_t index);

// The time from interruption `index` - 1 of the class (or the start, for index 0) to interruption
// `index`, ps, at least 1; kNever for a class that never strikes. Exponential of the class's mean, or
// Weibull of its shape with the same mean: scale = mean / Gamma(1 + 1 / shape).
[[nodiscard]] pdes::SimTime interarrival(const ClassProcess& process, std::uint64_t seed, std::uint32_t replica,
                                         std::uint32_t cls, std::uint64_t index);

}  // namespace rackscale::models::goodput
