#pragma once
// The result of compute_tco: capex, amortized capex and opex rates, and cost, energy and carbon for
// one iteration, per million tokens and for the whole training run, with a breakdown table.
// Units: USD, seconds, hours, kWh, kgCO2e (tonnes = kg / 1000).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rackscale::models::tco {

// Cost, energy and carbon over one scope. Every field scales linearly with the scope, so
// per_iteration = whole_run / iterations and per_million_tokens = whole_run x 1e6 / tokens.
struct Totals {
  double seconds = 0;              // wall-clock (simulated) time
  double device_hours = 0;         // accelerator-hours
  double tokens = 0;
  double it_energy_kwh = 0;
  double facility_energy_kwh = 0;  // IT x PUE
  double capex_amortized_usd = 0;  // hardware and facility value consumed
  double energy_usd = 0;           // facility energy x electricity price
  double maintenance_usd = 0;
  double opex_usd = 0;             // energy + maintenance
  double cost_usd = 0;             // amortized capex + opex
  double operational_kgco2e = 0;   // facility energy x grid intensity
  double embodied_llmcarbon_kgco2e = 0;  // NaN when the method has no figure for the node
  double embodied_act_kgco2e = 0;        // NaN when the method has no figure for the node
  double embodied_kgco2e = 0;      // the chosen method's (or the other's, if it has none; 0 if neither:
                                   // TcoReport::embodied_counted is then false)
  double carbon_kgco2e = 0;        // operational + embodied
  double cloud_equivalent_usd = 0; // device hours x cloud price (comparison only)
};

// One row of the whole-run breakdown; rows sum to whole_run.cost_usd and whole_run.carbon_kgco2e.
// carbon_kgco2e is empty where the model does not count the item's carbon (network items without a chip
// figure; Cottier's network share; the facility; maintenance), which is not the same as 0.
struct BreakdownRow {
  std::string item;
  double cost_usd = 0;
  std::optional<double> carbon_kgco2e;
};

struct TcoReport {
  std::uint64_t token_budget = 0;  // tokens of the whole run as asked for (0: the iterations simulated)
  std::uint64_t iterations = 0;
  // Purchase cost.
  double accelerators_capex_usd = 0;
  double hosts_capex_usd = 0;      // (server factor - 1) x accelerators
  double network_capex_usd = 0;    // NICs + switches + optics, or Cottier's share
  double facility_capex_usd = 0;   // provisioned IT MW x price per MW
  double hardware_capex_usd = 0;   // accelerators + hosts + network
  double capex_usd = 0;            // hardware + facility
  double provisioned_it_kw = 0;
  // Fractions of the purchase price consumed by the run.
  double hardware_value_lost = 0;
  double facility_value_lost = 0;
  // Average rates over the run.
  double amortized_capex_usd_per_hour = 0;
  double opex_usd_per_hour = 0;
  double cost_usd_per_hour = 0;
  double mean_it_power_kw = 0;
  // Embodied carbon per unit, kgCO2e (before the run's share). NaN where a method has no figure.
  double accelerator_die_llmcarbon_kg = 0;
  double accelerator_die_act_kg = 0;
  double accelerator_memory_kg = 0;
  double host_llmcarbon_kg = 0;
  double host_act_kg = 0;
  double network_embodied_kg = 0;  // the network's chips, the whole cluster, chosen method (itemized only)
  double embodied_share = 0;       // run time / lifetime
  bool embodied_counted = true;    // false when no method has figures for the hardware

  Totals per_iteration;
  Totals per_million_tokens;       // all zero when tokens per iteration is unknown
  Totals whole_run;
  std::vector<BreakdownRow> breakdown;
  // Assumptions that this particular estimate relied on (interpolated node figures, fallbacks).
  std::vector<std::string> notes;
};

}  // namespace rackscale::models::tco
