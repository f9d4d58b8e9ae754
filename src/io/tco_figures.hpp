#pragma once
// The cost, energy and carbon figures of a training run (docs/tco.md) under their one name each, as
// `rackscale run --json` (`tco`) and the results file (`/tco`) both carry them: the same attributes, the
// same three scopes, the same breakdown table.
#include <array>

#include <nlohmann/json.hpp>

#include "io/figures.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::io {

// The scopes: a subgroup (JSON member) each, with the Totals of that scope.
struct TcoScope {
  const char* name;
  const char* description;
  models::tco::Totals models::tco::TcoReport::*totals;
};
extern const std::array<TcoScope, 3> kTcoScopes;

// token_budget, iterations, capex by item, provisioned_it_power_W, the value fractions lost, the rates
// (capex_amortized_usd_per_s, opex_usd_per_s, cost_usd_per_s), embodied carbon per unit, embodied_share,
// notes.
[[nodiscard]] Figures tco_figures(const models::tco::TcoReport& report);
// time_s, device_time_s, tokens, it_energy_kWh, facility_energy_kWh, the costs in USD and the carbon in
// kgCO2e; embodied_kgco2e is NaN (null) when the embodied carbon is not counted.
[[nodiscard]] Figures totals_figures(const models::tco::Totals& totals, bool embodied_counted);
// item, cost_usd, carbon_kgco2e (NaN, null in JSON: not counted).
[[nodiscard]] Table tco_breakdown_table(const models::tco::TcoReport& report);

// The `tco` object of `--json`: tco_figures, then the scopes, then `breakdown`.
[[nodiscard]] nlohmann::ordered_json tco_json(const models::tco::TcoReport& report);

}  // namespace rackscale::io
