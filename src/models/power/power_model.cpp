#include "models/power/power_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rackscale::models::power {

std::uint64_t to_milliwatts(double watts) {
  // NaN fails both comparisons' negations, so it lands here too.
  if (!(watts >= 0.0) || !(watts <= 1e12)) {
    throw std::invalid_argument("power must be between 0 W and 1 TW, got " + std::to_string(watts) + " W");
  }
  return static_cast<std::uint64_t>(std::llround(watts * 1e3));
}

PowerLevels make_levels(double idle_watts, double active_watts) {
  PowerLevels levels{to_milliwatts(idle_watts), to_milliwatts(active_watts)};
  if (levels.active_mw < levels.idle_mw) {
    throw std::invalid_argument("active power " + std::to_string(active_watts) + " W is below idle power " +
                                std::to_string(idle_watts) + " W");
  }
  return levels;
}

PowerLevels accelerator_levels(const AcceleratorSpec& accelerator) {
  return make_levels(accelerator.idle_watts, accelerator.tdp_watts);
}

PowerLevels nic_levels(const NicSpec& nic) { return make_levels(nic.idle_watts, nic.active_watts); }

SwitchPower switch_power(const SwitchSpec& sw) {
  if (sw.radix == 0) throw std::invalid_argument("switch '" + sw.name + "' has no ports");
  return SwitchPower{to_milliwatts(sw.idle_watts), to_milliwatts(sw.port_watts), sw.radix};
}

double power_watts(const PowerLevels& levels, double utilization) noexcept {
  const double u = std::clamp(utilization, 0.0, 1.0);
  return levels.idle_watts() + (levels.active_watts() - levels.idle_watts()) * u;
}

pdes::SimTime accelerator_busy(const AcceleratorActivity& activity, double memory_bound_activity) {
  if (!(memory_bound_activity >= 0.0 && memory_bound_activity <= 1.0)) {
    throw std::invalid_argument("memory_bound_activity must be in [0, 1]");
  }
  const double weighted = std::round(static_cast<double>(activity.memory_bound) * memory_bound_activity);
  return activity.compute_bound + static_cast<pdes::SimTime>(weighted);
}

pdes::SimTime busy_from_bytes(std::uint64_t bytes, double bandwidth) {
  if (!(bandwidth > 0.0)) throw std::invalid_argument("bandwidth must be positive");
  return static_cast<pdes::SimTime>(std::round(static_cast<double>(bytes) / bandwidth * 1e12));
}

pdes::SimTime mean_port_busy(pdes::SimTime sum_of_port_busy, std::uint32_t ports) {
  if (ports == 0) throw std::invalid_argument("a switch needs at least one port");
  return sum_of_port_busy / ports + (sum_of_port_busy % ports >= (ports + 1) / 2 ? 1 : 0);
}

double utilization(pdes::SimTime busy, pdes::SimTime interval) noexcept {
  return interval == 0 ? 0.0 : static_cast<double>(busy) / static_cast<double>(interval);
}

double cottier_average_watts(const AcceleratorSpec& accelerator) noexcept {
  return kCottierAverageFractionOfTdp * accelerator.tdp_watts;
}

double facility_joules(const Energy& it_energy, double pue) {
  if (!(pue >= 1.0)) throw std::invalid_argument("PUE must be at least 1");
  return it_energy.joules() * pue;
}

}  // namespace rackscale::models::power
