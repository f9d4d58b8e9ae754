#pragma once
// A scenario's `tco:` section, resolved: the TCO and carbon inputs that do not depend on the simulated
// run, and the power figures that the run's energy metering needs besides the hardware presets.
// src/io/config fills it (every key optional, defaults of docs/tco.md section 4); a training run adds
// the hardware counts from its topology and the provisioned power, then calls compute_tco.
#include <string>

#include "models/power/power_model.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/run_measures.hpp"
#include "models/tco/tco_inputs.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::models::tco {

struct TcoSettings {
  // Counts are left empty (the topology gives them). Accelerator die, node, HBM and price come from the
  // accelerator preset unless the section overrides them. provisioned_it_watts 0: the sum over the
  // cluster's components of count x active power, computed by the run.
  TcoInputs inputs;
  // The accelerator preset has no assumed price and tco.prices.accelerator was not given: the
  // TcoInputs default is used, and the report says so.
  bool accelerator_price_assumed = false;
  // Host (server outside accelerators and NICs) power per host; ASSUMPTION, docs/tco.md section 1.
  double host_idle_watts = power::kDefaultHostIdleWatts;
  double host_active_watts = power::kDefaultHostActiveWatts;
  // Weight of memory-bound time in the accelerator's busy time (power::accelerator_busy).
  double memory_bound_activity = power::kDefaultMemoryBoundActivity;
};

// Defaults for a cluster of `accelerator`: inputs_for() without counts, and the price flag.
[[nodiscard]] TcoSettings default_settings(const AcceleratorSpec& accelerator);

// compute_tco for a simulated cluster: the settings' inputs with the inventory's counts and, unless the
// settings give one, its provisioned power; notes the assumed accelerator price. `accelerator_name`
// names the preset in that note. Throws std::invalid_argument as compute_tco does.
[[nodiscard]] TcoReport compute_tco(const TcoSettings& settings, const HardwareInventory& inventory,
                                    const RunMeasures& measures, const std::string& accelerator_name);

}  // namespace rackscale::models::tco
