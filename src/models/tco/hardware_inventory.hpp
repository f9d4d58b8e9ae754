#pragma once
// What a simulated cluster owns, counted from its topology, for the TCO model: hardware to price, the
// network itemized (its bill of materials), and the power the facility must be built for.
#include <cstdint>

#include "models/network/cabling.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/bill_of_materials.hpp"
#include "models/tco/tco_inputs.hpp"

namespace rackscale::models::tco {

struct HardwareInventory {
  HardwareCounts counts;                 // accelerators, hosts (nodes), NICs, scale-out switches, optical ports
  std::uint64_t scale_up_switches = 0;   // NVSwitches: priced inside the server, but powered
  BillOfMaterials bom;
  // The facility's design load: accelerators at TDP, hosts at their active power, and every NIC,
  // switch (each cabled port at full rate) and transceiver of the bill of materials, watts.
  double provisioned_it_watts = 0;
};

[[nodiscard]] HardwareInventory inventory_of(const network::Topology& topology, const network::ClusterSpec& cluster,
                                             const network::Cabling& cabling, const power::ClusterPower& power,
                                             const Prices& prices);

}  // namespace rackscale::models::tco
