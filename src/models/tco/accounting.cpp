#include "models/tco/accounting.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "models/power/power_model.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::tco {

TcoReport account(const TcoSettings& settings, const HardwareInventory& inventory, const power::ClusterPower& power,
                  const AccountingRequest& request, const std::string& accelerator_name) {
  const std::uint64_t devices = inventory.counts.accelerators;
  if (devices == 0) throw std::invalid_argument("accounting: the cluster has no accelerators");
  if (!(request.device_hours > 0) || !std::isfinite(request.device_hours))
    throw std::invalid_argument("accounting: the device-hours must be a positive number");
  if (request.watts_per_device && (!(*request.watts_per_device >= 0) || !std::isfinite(*request.watts_per_device)))
    throw std::invalid_argument("accounting: the power per device must be a non-negative number of watts");
  if (!(request.utilization >= 0 && request.utilization <= 1))
    throw std::invalid_argument("accounting: the utilization must be in [0, 1]");
  if (!(request.idle_share >= 0 && request.idle_share <= 1))
    throw std::invalid_argument("accounting: the idle share must be in [0, 1]");

  // The run is one "iteration" as long as the run: the devices all busy for device_hours / devices.
  const double seconds = request.device_hours * 3600.0 / static_cast<double>(devices);
  const double ps = std::round(seconds * 1e12);
  if (ps >= static_cast<double>(std::numeric_limits<pdes::SimTime>::max()))
    throw std::invalid_argument("accounting: the run is longer than the simulator's clock (about 213 days)");

  RunMeasures m;
  m.iteration_time = static_cast<pdes::SimTime>(ps);
  m.iterations = 1;
  m.devices = devices;
  EnergyByClass& e = m.it_joules_per_iteration;
  // The energy over the run's exact clock time, so that the report's power x time gives it back.
  const double t = pdes::to_seconds(m.iteration_time);
  if (request.watts_per_device) {
    e.other = static_cast<double>(devices) * *request.watts_per_device * t;
  } else {
    const double u = request.utilization;
    const double idle = request.idle_share;
    const auto mean_watts = [&](const power::PowerLevels& levels) {
      return (1 - idle) * power::power_watts(levels, u) + idle * power::power_watts(levels, 0.0);
    };
    const BillOfMaterials& bom = inventory.bom;
    e.accelerators = static_cast<double>(devices) * mean_watts(power.accelerator) * t;
    e.hosts = static_cast<double>(inventory.counts.hosts) * mean_watts(power.host) * t;
    e.nics = bom.nics ? static_cast<double>(bom.nics->count) * bom.nics->idle_watts * t : 0.0;
    for (const SwitchLine& s : bom.switches) e.switches += s.idle_watts * t;
    e.optics = bom.optics_watts() * t;
  }
  TcoSettings whole_run = settings;
  whole_run.inputs.token_budget = 0;  // the run is given by its device-hours, not by tokens
  return compute_tco(whole_run, inventory, m, accelerator_name);
}

}  // namespace rackscale::models::tco
