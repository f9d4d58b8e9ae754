#include "io/tco_figures.hpp"

#include <limits>
#include <string>
#include <vector>

namespace rackscale::io {

namespace tco = models::tco;

const std::array<TcoScope, 3> kTcoScopes{{
    {"per_iteration", "one training iteration", &tco::TcoReport::per_iteration},
    {"per_million_tokens", "one million training tokens (all zero when tokens are unknown)",
     &tco::TcoReport::per_million_tokens},
    {"whole_run", "the whole training run (its token budget, or the iterations simulated)", &tco::TcoReport::whole_run},
}};

namespace {
constexpr double kSecondsPerHour = 3600.0;
constexpr double kWattsPerKilowatt = 1000.0;
constexpr double kNotCounted = std::numeric_limits<double>::quiet_NaN();
}  // namespace

Figures tco_figures(const tco::TcoReport& r) {
  return {{"token_budget", r.token_budget},
          {"iterations", r.iterations},
          {"accelerators_capex_usd", r.accelerators_capex_usd},
          {"hosts_capex_usd", r.hosts_capex_usd},
          {"network_capex_usd", r.network_capex_usd},
          {"facility_capex_usd", r.facility_capex_usd},
          {"hardware_capex_usd", r.hardware_capex_usd},
          {"capex_usd", r.capex_usd},
          {"provisioned_it_power_W", r.provisioned_it_kw * kWattsPerKilowatt},
          {"hardware_value_lost", r.hardware_value_lost},
          {"facility_value_lost", r.facility_value_lost},
          {"capex_amortized_usd_per_s", r.amortized_capex_usd_per_hour / kSecondsPerHour},
          {"opex_usd_per_s", r.opex_usd_per_hour / kSecondsPerHour},
          {"cost_usd_per_s", r.cost_usd_per_hour / kSecondsPerHour},
          {"accelerator_die_llmcarbon_kgco2e", r.accelerator_die_llmcarbon_kg},
          {"accelerator_die_act_kgco2e", r.accelerator_die_act_kg},
          {"accelerator_memory_kgco2e", r.accelerator_memory_kg},
          {"host_llmcarbon_kgco2e", r.host_llmcarbon_kg},
          {"host_act_kgco2e", r.host_act_kg},
          {"network_kgco2e", r.network_embodied_kg},
          {"embodied_share", r.embodied_share},
          {"notes", r.notes}};
}

Figures totals_figures(const tco::Totals& t, bool embodied_counted) {
  return {{"time_s", t.seconds},
          {"device_time_s", t.device_hours * kSecondsPerHour},
          {"tokens", t.tokens},
          {"it_energy_kWh", t.it_energy_kwh},
          {"facility_energy_kWh", t.facility_energy_kwh},
          {"capex_amortized_usd", t.capex_amortized_usd},
          {"energy_usd", t.energy_usd},
          {"maintenance_usd", t.maintenance_usd},
          {"opex_usd", t.opex_usd},
          {"cost_usd", t.cost_usd},
          {"operational_kgco2e", t.operational_kgco2e},
          {"embodied_llmcarbon_kgco2e", t.embodied_llmcarbon_kgco2e},
          {"embodied_act_kgco2e", t.embodied_act_kgco2e},
          {"embodied_kgco2e", embodied_counted ? t.embodied_kgco2e : kNotCounted},
          {"carbon_kgco2e", t.carbon_kgco2e},
          {"cloud_equivalent_usd", t.cloud_equivalent_usd}};
}

Table tco_breakdown_table(const tco::TcoReport& r) {
  std::vector<std::string> items;
  std::vector<double> cost, carbon;
  for (const auto& row : r.breakdown) {
    items.push_back(row.item);
    cost.push_back(row.cost_usd);
    carbon.push_back(row.carbon_kgco2e.value_or(kNotCounted));
  }
  return {{"item", "", "what the row counts", std::move(items)},
          {"cost_usd", "USD", "the item's cost over the whole run", std::move(cost)},
          {"carbon_kgco2e", "kgCO2e", "the item's carbon over the whole run; NaN where the model does not count it",
           std::move(carbon)}};
}

nlohmann::ordered_json tco_json(const tco::TcoReport& r) {
  nlohmann::ordered_json j = figures_json(tco_figures(r));
  for (const TcoScope& scope : kTcoScopes) j[scope.name] = figures_json(totals_figures(r.*scope.totals, r.embodied_counted));
  j["breakdown"] = table_json(tco_breakdown_table(r));
  return j;
}

}  // namespace rackscale::io
