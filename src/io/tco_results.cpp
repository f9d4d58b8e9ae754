#include "io/tco_results.hpp"

#include <string>
#include <vector>

#include "io/results_columns.hpp"

namespace rackscale::io {

namespace tco = models::tco;
using hdf5::Group;

namespace {
// One scope's totals as attributes of a subgroup; names carry the units.
void write_totals(Group& parent, const char* name, const char* description, const tco::Totals& t) {
  Group g = parent.create_group(name);
  g.set_attribute("description", description);
  g.set_attribute("time_s", t.seconds);
  g.set_attribute("device_hours", t.device_hours);
  g.set_attribute("tokens", t.tokens);
  g.set_attribute("it_energy_kWh", t.it_energy_kwh);
  g.set_attribute("facility_energy_kWh", t.facility_energy_kwh);
  g.set_attribute("capex_amortized_usd", t.capex_amortized_usd);
  g.set_attribute("energy_usd", t.energy_usd);
  g.set_attribute("maintenance_usd", t.maintenance_usd);
  g.set_attribute("opex_usd", t.opex_usd);
  g.set_attribute("cost_usd", t.cost_usd);
  g.set_attribute("operational_kgCO2e", t.operational_kgco2e);
  g.set_attribute("embodied_llmcarbon_kgCO2e", t.embodied_llmcarbon_kgco2e);
  g.set_attribute("embodied_act_kgCO2e", t.embodied_act_kgco2e);
  g.set_attribute("embodied_kgCO2e", t.embodied_kgco2e);
  g.set_attribute("carbon_kgCO2e", t.carbon_kgco2e);
  g.set_attribute("cloud_equivalent_usd", t.cloud_equivalent_usd);
}
}  // namespace

void write_tco(Group& root, const tco::TcoReport& r) {
  Group g = root.create_group("tco");
  g.set_attribute("description", "cost, energy and carbon of the run: purchase cost, the share of it the run "
                                 "consumed, operating cost and carbon, per iteration, per million tokens and for "
                                 "the whole training run (docs/tco.md)");
  g.set_attribute("iterations", r.iterations);
  g.set_attribute("accelerators_capex_usd", r.accelerators_capex_usd);
  g.set_attribute("hosts_capex_usd", r.hosts_capex_usd);
  g.set_attribute("network_capex_usd", r.network_capex_usd);
  g.set_attribute("facility_capex_usd", r.facility_capex_usd);
  g.set_attribute("hardware_capex_usd", r.hardware_capex_usd);
  g.set_attribute("capex_usd", r.capex_usd);
  g.set_attribute("provisioned_it_kW", r.provisioned_it_kw);
  g.set_attribute("hardware_value_lost", r.hardware_value_lost);
  g.set_attribute("facility_value_lost", r.facility_value_lost);
  g.set_attribute("amortized_capex_usd_per_h", r.amortized_capex_usd_per_hour);
  g.set_attribute("opex_usd_per_h", r.opex_usd_per_hour);
  g.set_attribute("cost_usd_per_h", r.cost_usd_per_hour);
  g.set_attribute("mean_it_power_kW", r.mean_it_power_kw);
  g.set_attribute("accelerator_die_llmcarbon_kgCO2e", r.accelerator_die_llmcarbon_kg);
  g.set_attribute("accelerator_die_act_kgCO2e", r.accelerator_die_act_kg);
  g.set_attribute("accelerator_memory_kgCO2e", r.accelerator_memory_kg);
  g.set_attribute("host_llmcarbon_kgCO2e", r.host_llmcarbon_kg);
  g.set_attribute("host_act_kgCO2e", r.host_act_kg);
  g.set_attribute("embodied_share", r.embodied_share);
  g.set_attribute("notes", std::span<const std::string>(r.notes));

  write_totals(g, "per_iteration", "one training iteration", r.per_iteration);
  write_totals(g, "per_million_tokens", "one million training tokens (all zero when tokens are unknown)",
               r.per_million_tokens);
  write_totals(g, "whole_run", "the whole training run (its token budget)", r.whole_run);

  Group b = g.create_group("breakdown");
  b.set_attribute("description", "the whole run's cost and carbon by item; the rows add up to "
                                 "whole_run cost_usd and carbon_kgCO2e");
  std::vector<std::string> items;
  std::vector<double> cost, carbon;
  for (const auto& row : r.breakdown) {
    items.push_back(row.item);
    cost.push_back(row.cost_usd);
    carbon.push_back(row.carbon_kgco2e);
  }
  write_replicated_strings(b, "item", items, "what the row counts");
  write_replicated_column(b, "cost_usd", cost, "USD", "the item's cost over the whole run");
  write_replicated_column(b, "carbon_kgCO2e", carbon, "kgCO2e", "the item's carbon over the whole run");
}

}  // namespace rackscale::io
