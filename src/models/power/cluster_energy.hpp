#pragma once
// The energy of a cluster's components over a metered interval of simulated time (docs/tco.md
// sections 1-2), from what the simulation measured:
//
//   accelerator  idle -> TDP, busy = its compute units' busy time (memory-bound time weighted)
//   host         host levels (tco.power), busy = the mean of its accelerators' busy times
//   NIC          idle -> active, busy = the mean of its two directions' serialization time
//   switch       idle + per port: port power x the mean of the port's two directions' serialization time
//   optics       each transceiver's power over the whole interval (network/cabling.hpp): one at each end
//                of a cable between racks, charged to the node at that end
//
// Every busy time is capped at the interval (the analytical fabric has no queues, so a port's messages
// may overlap). Each rank meters the components it owns; the exact per-class sums are then added over
// ranks (ClassEnergy::limbs), so totals are identical for any rank count and partition. Copper cables
// draw nothing of their own; scale-up meshes and torus links are not metered beyond their optics.
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/power/energy.hpp"
#include "models/power/power_model.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::power {

// Power levels of every class of component of a cluster.
struct ClusterPower {
  PowerLevels accelerator;
  PowerLevels host;
  PowerLevels nic;
  SwitchPower scale_up_switch;                    // NVSwitch of a scale-up domain
  std::array<SwitchPower, 3> scale_out_switch{};  // by tier: leaf (or dragonfly router), spine, core
  double memory_bound_activity = kDefaultMemoryBoundActivity;
};

// From the cluster's presets and the host figures. Throws std::invalid_argument (make_levels).
[[nodiscard]] ClusterPower cluster_power(const network::ClusterSpec& cluster, double host_idle_watts,
                                         double host_active_watts, double memory_bound_activity);

struct ClassEnergy {
  Energy accelerators, hosts, nics, switches, optics;
  [[nodiscard]] Energy total() const { return accelerators + hosts + nics + switches + optics; }
  // Two limbs per class (millijoules, femtojoule remainder), for an element-wise MPI_SUM over ranks.
  static constexpr std::size_t kLimbs = 10;
  [[nodiscard]] std::array<std::uint64_t, kLimbs> limbs() const noexcept;
  // From limbs summed over ranks (unnormalized remainders carry).
  [[nodiscard]] static ClassEnergy from_limbs(std::span<const std::uint64_t, kLimbs> limbs);
};

// One accelerator's energy over the interval.
struct DeviceEnergy {
  std::uint32_t device = 0;
  Energy accelerator;
};

struct MeteredEnergy {
  ClassEnergy by_class;
  std::vector<DeviceEnergy> devices;  // in the order given
};

// What a rank owns and what it measured over `interval` ps.
struct MeteringInput {
  const network::Topology& topology;
  const network::ClusterSpec& cluster;
  const ClusterPower& power;
  pdes::SimTime interval = 0;
  // This rank's devices (whole hosts: a node's devices are in one rack, so on one rank) with their
  // compute activity over the interval.
  std::span<const std::pair<std::uint32_t, AcceleratorActivity>> devices;
  // This rank's switch nodes.
  std::span<const network::NodeId> switches;
  // Serialization time per port (Topology port id), summed over every rank's counters.
  std::span<const std::uint64_t> port_busy;
  // The optics' draw at each port (Topology port id), mW (network::Cabling::port_optics_mw); empty: none.
  std::span<const std::uint32_t> port_optics_mw = {};
};

// Throws std::invalid_argument when a host's devices are not all given (a partition that splits a node).
[[nodiscard]] MeteredEnergy meter_components(const MeteringInput& input);

}  // namespace rackscale::models::power
