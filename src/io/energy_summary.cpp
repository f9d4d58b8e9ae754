#include "io/energy_summary.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "io/text_table.hpp"

namespace rackscale::io {

namespace wl = models::workload;
namespace tco = models::tco;
using A = TextTable::Align;

namespace {

std::string joules(double j) { return with_prefix(j, Prefixes::si, "J"); }
std::string watts(double w) { return with_prefix(w, Prefixes::si, "W"); }
std::string kwh(double kwh) { return with_prefix(kwh * 1e3, Prefixes::si, "Wh"); }
std::string share(double part, double whole) { return whole > 0 ? format_percent(part / whole) : "-"; }

std::string energy_table(const wl::TrainingReport& r) {
  const auto& e = r.energy_per_iteration_joules;
  TextTable energy({"IT energy per iteration", "energy", "mean power", "share"}, {A::left, A::right, A::right, A::right});
  const double iteration_s = pdes::to_seconds(r.iteration_time);
  const auto row = [&](const char* name, double j) {
    energy.add_row({name, joules(j), iteration_s > 0 ? watts(j / iteration_s) : "-", share(j, e.total())});
  };
  row("accelerators", e.accelerators);
  row("hosts", e.hosts);
  row("NICs", e.nics);
  row("switches", e.switches);
  row("optics", e.optics);
  row("total (IT)", e.total());
  std::string out = energy.render();
  if (r.iterations > 1)
    out += fmt::format("Energy per iteration is the mean power over the {} simulated iterations ({} in {}) times the "
                       "last iteration's time ({}), so the first iteration's warm-up is spread over all of them.\n",
                       r.iterations, joules(r.energy.total().joules()), format_picoseconds(r.simulated_time),
                       format_picoseconds(r.iteration_time));
  return out;
}

// The scopes side by side: per iteration, per million tokens, and the whole run. Carbon is shown in one
// unit per scope, chosen from the scope's largest figure.
struct Scope {
  std::string heading;
  const tco::Totals* totals;
  Unit carbon;
};

std::string scope_table(const tco::TcoReport& t) {
  std::vector<Scope> scopes;
  const auto add_scope = [&](std::string heading, const tco::Totals& totals) {
    const double largest = std::max({totals.carbon_kgco2e, totals.operational_kgco2e, totals.embodied_kgco2e});
    scopes.push_back({std::move(heading), &totals, carbon_unit(largest)});
  };
  add_scope("per iteration", t.per_iteration);
  if (t.per_million_tokens.tokens > 0) add_scope("per million tokens", t.per_million_tokens);
  add_scope(t.token_budget > 0
                ? fmt::format("whole run ({})", with_prefix(static_cast<double>(t.token_budget), Prefixes::counts, "tokens"))
                : fmt::format("simulated ({} iterations)", with_commas(t.iterations)),
            t.whole_run);

  std::vector<std::string> headings{"cost and carbon"};
  std::vector<A> align{A::left};
  for (const auto& s : scopes) {
    headings.push_back(s.heading);
    align.push_back(A::right);
  }
  TextTable costs(headings, align);
  const auto add = [&](const char* name, auto format) {
    std::vector<std::string> cells{name};
    for (const auto& s : scopes) cells.push_back(format(s));
    costs.add_row(std::move(cells));
  };
  const auto money = [](double tco::Totals::*field) { return [field](const Scope& s) { return format_usd(s.totals->*field); }; };
  const auto carbon = [&](double tco::Totals::*field, bool counted) {
    return [field, counted](const Scope& s) {
      return format_carbon(counted ? std::optional<double>(s.totals->*field) : std::nullopt, s.carbon);
    };
  };
  add("time", [](const Scope& s) { return format_seconds(s.totals->seconds); });
  add("device-hours", [](const Scope& s) { return significant(s.totals->device_hours); });
  add("IT energy", [](const Scope& s) { return kwh(s.totals->it_energy_kwh); });
  add("facility energy (x PUE)", [](const Scope& s) { return kwh(s.totals->facility_energy_kwh); });
  add("capex, amortized", money(&tco::Totals::capex_amortized_usd));
  add("electricity", money(&tco::Totals::energy_usd));
  add("maintenance", money(&tco::Totals::maintenance_usd));
  add("cost", money(&tco::Totals::cost_usd));
  add("cloud equivalent (comparison)", money(&tco::Totals::cloud_equivalent_usd));
  add("carbon, operational (CO2e)", carbon(&tco::Totals::operational_kgco2e, true));
  add("carbon, embodied (CO2e)", carbon(&tco::Totals::embodied_kgco2e, t.embodied_counted));
  add("carbon, total (CO2e)", carbon(&tco::Totals::carbon_kgco2e, true));
  return costs.render();
}

// The whole run by item; its carbon in one unit, chosen from the largest item.
std::string breakdown_table(const tco::TcoReport& t) {
  double largest = 0;
  for (const auto& row : t.breakdown) largest = std::max(largest, std::abs(row.carbon_kgco2e.value_or(0)));
  const Unit unit = carbon_unit(largest);
  TextTable breakdown({t.token_budget > 0 ? "whole run by item" : "simulated iterations by item", "cost", "share",
                       "carbon (CO2e)", "share"},
                      {A::left, A::right, A::right, A::right, A::right});
  for (const auto& row : t.breakdown)
    breakdown.add_row({row.item, format_usd(row.cost_usd), share(row.cost_usd, t.whole_run.cost_usd),
                       format_carbon(row.carbon_kgco2e, unit),
                       row.carbon_kgco2e ? share(*row.carbon_kgco2e, t.whole_run.carbon_kgco2e) : "-"});
  return breakdown.render();
}

}  // namespace

std::string energy_summary(const wl::TrainingReport& r) {
  std::string out = energy_table(r) + "\n";
  if (!r.tco) return out;
  const tco::TcoReport& t = *r.tco;
  out += scope_table(t);
  out += fmt::format("capex {} (accelerators {}, hosts {}, network {}, facility {} for {} provisioned); the run uses "
                     "{} of the hardware's value\n\n",
                     format_usd(t.capex_usd), format_usd(t.accelerators_capex_usd), format_usd(t.hosts_capex_usd),
                     format_usd(t.network_capex_usd), format_usd(t.facility_capex_usd),
                     watts(t.provisioned_it_kw * 1e3), format_percent(t.hardware_value_lost));
  out += breakdown_table(t);
  for (const auto& note : t.notes) out += fmt::format("note: {}\n", note);
  out += "\n";
  return out;
}

}  // namespace rackscale::io
