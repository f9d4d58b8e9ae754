#pragma once
// What accounting without a simulation needs from a scenario (models/tco/accounting.hpp): its cluster's
// power levels and hardware inventory (with the network's bill of materials). Shared by `tco` and
// `goodput`.
#include "models/power/cluster_energy.hpp"
#include "models/scenario.hpp"
#include "models/tco/hardware_inventory.hpp"

namespace rackscale::app {

struct AccountingInputs {
  models::power::ClusterPower power;
  models::tco::HardwareInventory inventory;
};

// Builds the cluster's topology to count its hardware. Throws std::invalid_argument as the builders do.
[[nodiscard]] AccountingInputs accounting_inputs(const models::Scenario& scenario, const models::tco::TcoSettings& settings);

}  // namespace rackscale::app
