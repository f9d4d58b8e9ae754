#pragma once
// Accounting without a simulation (docs/tco.md, "Accounting without a simulation"): the energy, cost and
// carbon of a run stated as published footprints state it, from its device-hours and a power per device,
//
//   IT energy = device-hours x power per device;  facility = IT x PUE;  operational = facility x grid
//
// priced and weighed by the same TCO model (compute_tco) as a simulated run, with the cluster's hardware
// (its bill of materials) for the capital cost and embodied carbon.
#include <optional>
#include <string>

#include "models/power/cluster_energy.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/tco_report.hpp"
#include "models/tco/tco_settings.hpp"

namespace rackscale::models::tco {

struct AccountingRequest {
  double device_hours = 0;  // accelerator-hours of the whole run (> 0)
  // The whole system's mean power per device (Patterson et al.'s "measured average system power per
  // processor"), watts. Empty: from the presets, each accelerator and host at `utilization` between
  // idle and active, the network at its idle power plus its optics.
  std::optional<double> watts_per_device;
  double utilization = 0.75;  // Cottier et al. 2024: GPUs average 0.75 x TDP over a training run
  // The share of the run's time the accelerators and hosts wait idle (a job restarting after an
  // interruption, docs/goodput.md): they draw their idle power then, and `utilization`'s the rest of
  // the time. Only with the presets' power (no watts_per_device).
  double idle_share = 0;
};

// Throws std::invalid_argument on a request out of range (device-hours not positive, a run longer than
// the simulator's clock, a negative power, a utilization or an idle share outside [0, 1]).
[[nodiscard]] TcoReport account(const TcoSettings& settings, const HardwareInventory& inventory,
                                const power::ClusterPower& power, const AccountingRequest& request,
                                const std::string& accelerator_name);

}  // namespace rackscale::models::tco
