#include "models/power/energy_meter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rackscale::models::power {

void EnergyMeter::add_busy(pdes::SimTime busy, pdes::SimTime interval) {
  if (busy > interval) throw std::invalid_argument("busy time exceeds the interval");
  energy_ += Energy::from_power(levels_.idle_mw, interval);
  energy_ += Energy::from_power(levels_.dynamic_mw(), busy);
  elapsed_ += interval;
  busy_ += busy;
}

void EnergyMeter::add_utilization(double utilization, pdes::SimTime interval) {
  const double u = std::clamp(utilization, 0.0, 1.0);
  const auto busy = static_cast<pdes::SimTime>(std::round(u * static_cast<double>(interval)));
  add_busy(std::min(busy, interval), interval);
}

void EnergyMeter::add_bytes(std::uint64_t bytes, double bandwidth, pdes::SimTime interval) {
  add_busy(std::min(busy_from_bytes(bytes, bandwidth), interval), interval);
}

void EnergyMeter::add_constant(std::uint64_t milliwatts, pdes::SimTime duration) {
  energy_ += Energy::from_power(milliwatts, duration);
  elapsed_ += duration;
}

void EnergyMeter::merge(const EnergyMeter& other) {
  energy_ += other.energy_;
  elapsed_ += other.elapsed_;
  busy_ += other.busy_;
}

double EnergyMeter::average_watts() const noexcept {
  return elapsed_ == 0 ? 0.0 : energy_.joules() / pdes::to_seconds(elapsed_);
}

}  // namespace rackscale::models::power
