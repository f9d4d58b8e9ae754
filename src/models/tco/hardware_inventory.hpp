#pragma once
// What a simulated cluster owns, counted from its topology, for the TCO model: hardware to price and
// the power the facility must be built for.
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/tco_inputs.hpp"

namespace rackscale::models::tco {

struct HardwareInventory {
  HardwareCounts counts;                 // accelerators, hosts (nodes), NICs, scale-out switches, optical ports
  std::uint64_t scale_up_switches = 0;   // NVSwitches: priced inside the server, but powered
  std::uint64_t scale_out_cables = 0;    // NIC, leaf-spine, spine-core, dragonfly local and global cables
  // The facility's design load: sum over components of count x active power (accelerators at TDP,
  // hosts, NICs, scale-up and scale-out switches), watts.
  double provisioned_it_watts = 0;
};

// Optical ports are 2 per scale-out cable (a transceiver or a cable's share at each end); scale-up
// links and torus links are not counted (inside the server price, or not priced).
[[nodiscard]] HardwareInventory inventory_of(const network::Topology& topology, const network::ClusterSpec& cluster,
                                             const power::ClusterPower& power);

}  // namespace rackscale::models::tco
