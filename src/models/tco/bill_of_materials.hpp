#pragma once
// The bill of materials of a cluster's network (docs/tco.md, "Bill of materials"): what its topology is
// made of, tier by tier, priced, powered and weighed from the presets.
//
//   NICs       one per device with a scale-out port; the NIC preset's price, power and chip
//   switches   per tier (leaf, spine, core, router; NVSwitches listed, priced inside the servers):
//              count, ports used, the tier's switch preset's price, power by load and chip
//   cables     per tier (NIC, leaf-spine, spine-core, local, global, torus): copper inside a rack,
//              optical between racks, two transceivers per optical cable, from the optics preset of
//              the tier's port speed (network/cabling.hpp)
//   racks      compute and network
//
// A preset without a price takes the TCO's fallback price (an ASSUMPTION, noted); tco.prices.nic,
// switch and optics_per_port, when given, price every unit of their kind.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/network/cabling.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/tco/tco_inputs.hpp"

namespace rackscale::models::tco {

struct NicLine {
  std::string model;
  std::uint64_t count = 0;
  double unit_usd = 0;
  double idle_watts = 0;
  double active_watts = 0;
  double die_area_mm2 = 0;
  double process_nm = 0;
};

struct SwitchLine {
  std::string tier;   // leaf, spine, core, router, scale-up
  std::string model;
  std::uint64_t count = 0;
  std::uint32_t radix = 0;
  std::uint64_t ports_used = 0;  // cabled ports, all switches of the tier
  double unit_usd = 0;
  bool in_server = false;        // NVSwitches: priced inside the servers, not in the network's capex
  double idle_watts = 0;         // all switches of the tier
  double active_watts = 0;       // all switches of the tier, every cabled port at full rate
  double die_area_mm2 = 0;
  double process_nm = 0;
};

struct CableLine {
  std::string tier;           // NIC, leaf-spine, spine-core, local, global, torus
  double port_bandwidth = 0;  // bytes/s
  std::string optics;         // preset name; empty when none serves the speed
  std::uint64_t copper = 0;   // inside a rack
  std::uint64_t optical = 0;  // between racks
  double dac_usd = 0;         // per copper cable
  double transceiver_usd = 0; // per end
  double fiber_usd = 0;       // per optical cable
  double transceiver_watts = 0;
  double die_area_mm2 = 0;    // per transceiver
  double process_nm = 0;

  [[nodiscard]] std::uint64_t cables() const noexcept { return copper + optical; }
  [[nodiscard]] std::uint64_t transceivers() const noexcept { return 2 * optical; }
  [[nodiscard]] double usd() const noexcept;
  [[nodiscard]] double optics_watts() const noexcept;
};

struct BillOfMaterials {
  std::uint64_t accelerators = 0;
  std::uint64_t hosts = 0;
  std::uint64_t compute_racks = 0;
  std::uint64_t network_racks = 0;
  std::optional<NicLine> nics;
  std::vector<SwitchLine> switches;  // by tier, bottom up; NVSwitches last
  std::vector<CableLine> cables;     // by tier, bottom up
  std::vector<std::string> notes;    // fallback prices, speeds without optics

  [[nodiscard]] double nics_usd() const noexcept;
  [[nodiscard]] double switches_usd() const noexcept;  // scale-out switches (NVSwitches are in the servers)
  [[nodiscard]] double cables_usd() const noexcept;    // copper, transceivers and fibre
  [[nodiscard]] double network_usd() const noexcept { return nics_usd() + switches_usd() + cables_usd(); }
  [[nodiscard]] double optics_watts() const noexcept;
  [[nodiscard]] std::uint64_t transceivers() const noexcept;
  // Every NIC, switch and transceiver at full load: the network's share of the facility's design load.
  [[nodiscard]] double network_active_watts() const noexcept;
};

[[nodiscard]] BillOfMaterials bill_of_materials(const network::Topology& topology, const network::ClusterSpec& cluster,
                                                const network::Cabling& cabling, const Prices& prices);

// The network's items for compute_tco (TcoInputs::network_items): NICs, each switch tier, and each cable
// tier's copper, transceivers and fibre.
[[nodiscard]] std::vector<NetworkItem> network_items(const BillOfMaterials& bom);

}  // namespace rackscale::models::tco
