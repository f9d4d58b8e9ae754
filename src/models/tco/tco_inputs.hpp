#pragma once
// What a TCO and carbon estimate needs besides the simulated run: the hardware owned, its prices, how
// it depreciates, the facility, electricity and grid, and the embodied-carbon settings. Every default
// is either from data/reference/energy_carbon_cost.md (sourced) or marked ASSUMPTION: no public
// figure in the reference; a documented, overridable default. docs/tco.md lists them all.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/hardware.hpp"
#include "models/tco/depreciation.hpp"
#include "models/tco/embodied_carbon.hpp"

namespace rackscale::models::tco {

// Hardware owned for the run. Scale-up switches (NVSwitch) are part of the server and priced by the
// server factor; `switches` are the scale-out switch boxes. The network counts price the network only
// when TcoInputs::network_items is empty (the itemized bill of materials replaces them).
struct HardwareCounts {
  std::uint64_t accelerators = 0;
  std::uint64_t hosts = 0;          // servers (nodes)
  std::uint64_t nics = 0;           // scale-out NICs
  std::uint64_t switches = 0;       // scale-out switches
  std::uint64_t optical_ports = 0;  // cable ends (transceiver or cable share): 2 per scale-out link
};

// Which row of the cost breakdown a network item belongs to.
enum class NetworkPart { nics, switches, optics };

// One line of the network's bill of materials (bill_of_materials.hpp), as the TCO prices and weighs it.
struct NetworkItem {
  std::string name;
  NetworkPart part = NetworkPart::switches;
  std::uint64_t count = 0;
  double unit_usd = 0;
  // Its chip, for embodied carbon by either method; 0: not counted (no figure).
  double die_area_mm2 = 0;
  double process_nm = 0;
};

// How network hardware is priced.
enum class NetworkCost {
  itemized,        // NICs, switches and optics at their unit prices
  cottier_factor,  // Cottier et al.: networking is 19% of cluster cost, i.e. servers x 1/(1 - 0.19)
};

struct Prices {
  double accelerator_usd = 25'000;        // ASSUMPTION: H100-class price (see default_accelerator_price_usd)
  double server_factor = 1.64;            // Cottier et al. 2024: server = 1.64 x its accelerators' cost
  // The scale-out NICs come with the servers and are priced by server_factor, which Cottier et al. read
  // from DGX system prices (a DGX A100 / H100 ships with its 8 compute ConnectX NICs): charging them
  // again as network capex would count them twice. false: a server without NICs, bought separately.
  // Either way their power and embodied carbon are the network's NIC rows (docs/tco.md, "Capex").
  bool nics_in_server = true;
  // Network units: their presets' prices, unless one of these prices every unit of its kind
  // (tco.prices.nic, switch, optics_per_port). A preset without a price takes the fallback.
  std::optional<double> nic_usd;
  std::optional<double> switch_usd;
  std::optional<double> optics_per_port_usd;  // per cable end: a transceiver, or half a copper cable
  double fallback_nic_usd = 1'500;             // ASSUMPTION: 400G-class NIC
  double fallback_switch_usd = 25'000;         // ASSUMPTION: 64 x 400G-class switch
  double fallback_optics_per_port_usd = 750;   // ASSUMPTION: transceiver or share of a cable, per cable end
  NetworkCost network = NetworkCost::itemized;
  double cottier_network_share = 0.19;    // Cottier et al. 2024: networking share of cluster cost
  double facility_usd_per_mw = 10'000'000;  // ASSUMPTION: datacenter build-out per MW of IT power
  double electricity_usd_per_kwh = 0.08;  // ASSUMPTION: industrial electricity price
  double cloud_usd_per_device_hour = 2.0; // DeepSeek-V3 report: $2 per H800 GPU-hour (comparison only)
};

enum class EmbodiedMethod { llmcarbon, act };

struct EmbodiedSettings {
  // The accelerator (from AcceleratorSpec; see inputs_for()).
  double die_area_mm2 = 0;
  double process_nm = 0;
  double accelerator_memory_gb = 0;  // HBM, charged as DRAM
  // Per host. ASSUMPTION (DGX H100-like server: 2 TB DRAM, 8 x 3.84 TB NVMe); CPU dies not charged
  // unless given (no figure in the reference).
  double host_dram_gb = 2048;
  double host_ssd_gb = 30'720;
  double host_cpu_die_area_mm2 = 0;
  double host_cpu_process_nm = 7;
  // LLMCarbon: CPA override, kgCO2e/cm2 (0: from the node table).
  double cpa_kg_per_cm2 = 0;
  // ACT: node figures override (nullopt: from the node table), fab grid, abatement, yield.
  std::optional<ActNodeFigures> act_node;
  double fab_grid_g_per_kwh = 583;  // ASSUMPTION that the fab is in Taiwan; figure: ACT location table
  GasAbatement abatement = GasAbatement::percent95;  // the conservative (higher) of ACT's two
  double yield = kActDefaultYield;                   // ACT
  EmbodiedMethod method = EmbodiedMethod::llmcarbon; // which one enters the total carbon
};

struct TcoInputs {
  HardwareCounts counts;
  // The network itemized (a bill of materials); empty: counts.nics, switches and optical_ports at the
  // prices' overrides or fallbacks.
  std::vector<NetworkItem> network_items;
  Prices prices;
  EmbodiedSettings embodied;
  // Power the facility is built for (sum of components' active power), watts. 0: the run's mean IT
  // power (a lower bound; the report notes it).
  double provisioned_it_watts = 0;
  double lifetime_years = 5;           // LLMCarbon's hardware lifetime (embodied share); also depreciation
  Depreciation depreciation = Depreciation::straight_line;
  double decay_oom_per_year = kCottierDecayOomPerYear;  // exponential depreciation, Cottier et al.
  double hardware_age_years = 0;       // age at the start of the run (exponential depreciation)
  double facility_lifetime_years = 15; // ASSUMPTION: buildings and power plant, straight line
  double pue = 1.1;                    // Cottier et al. (hyperscaler 1.1); Patterson et al. GPT-3 1.10
  double grid_g_per_kwh = 380;         // ACT location table, USA
  double maintenance_fraction_per_year = 0.05;  // ASSUMPTION: of hardware capex, per year
  std::uint64_t token_budget = 0;      // tokens of the whole run; 0: RunMeasures::iterations is given
};

// Throws std::invalid_argument naming the field (as in the YAML schema of docs/tco.md).
void validate(const TcoInputs& inputs);

// ASSUMPTION: rough purchase prices by accelerator preset name (configs/presets/accelerators); no
// price is in the reference. nullopt for an unknown preset or one not sold (TPUs).
[[nodiscard]] std::optional<double> default_accelerator_price_usd(std::string_view preset_name) noexcept;

// Defaults filled from the accelerator: die area, node, HBM (GiB read back as the nominal GB the
// presets were written from), and the default price when one is known.
[[nodiscard]] TcoInputs inputs_for(const AcceleratorSpec& accelerator, const HardwareCounts& counts);

}  // namespace rackscale::models::tco
