#pragma once
// Integrates one component's (or one class of identical components') energy over simulated time:
// each call adds an interval during which the component was busy for part of the time,
//
//   E += idle x interval + (active - idle) x busy        (milliwatts x picoseconds = femtojoules)
//
// All in integers (models/power/energy.hpp), so a meter's total, and any sum of meters, is exact and
// identical however the components are spread over ranks. One meter per component, or one per class
// with add_* called per component: the total is the same.
#include <cstdint>

#include "models/power/energy.hpp"
#include "models/power/power_model.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::power {

class EnergyMeter {
 public:
  EnergyMeter() = default;
  explicit EnergyMeter(PowerLevels levels) noexcept : levels_(levels) {}

  // `interval` ps during which the component was busy for `busy` ps. Throws std::invalid_argument when
  // busy > interval (a model bug: a component cannot be more than fully busy).
  void add_busy(pdes::SimTime busy, pdes::SimTime interval);
  // Busy for round(utilization x interval) ps; utilization clamped to [0, 1].
  void add_utilization(double utilization, pdes::SimTime interval);
  // Moved `bytes` at `bandwidth` bytes/s during `interval`: busy = bytes / bandwidth, capped at the
  // interval (counters may include bytes whose serialization straddles the interval's end).
  void add_bytes(std::uint64_t bytes, double bandwidth, pdes::SimTime interval);
  // Constant power for `duration` (a component with no activity model, e.g. a fixed load).
  void add_constant(std::uint64_t milliwatts, pdes::SimTime duration);
  // Another meter's totals (e.g. the same class of component from another rank or LP).
  void merge(const EnergyMeter& other);

  [[nodiscard]] const PowerLevels& levels() const noexcept { return levels_; }
  [[nodiscard]] const Energy& energy() const noexcept { return energy_; }
  [[nodiscard]] double joules() const noexcept { return energy_.joules(); }
  // Component-time covered and busy component-time (summed over the intervals added), ps.
  [[nodiscard]] pdes::SimTime elapsed() const noexcept { return elapsed_; }
  [[nodiscard]] pdes::SimTime busy() const noexcept { return busy_; }
  // Energy / elapsed, watts (0 when nothing was added).
  [[nodiscard]] double average_watts() const noexcept;

 private:
  PowerLevels levels_;
  Energy energy_;
  pdes::SimTime elapsed_ = 0;
  pdes::SimTime busy_ = 0;
};

}  // namespace rackscale::models::power
