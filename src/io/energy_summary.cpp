#include "io/energy_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "io/text_table.hpp"

namespace rackscale::io {

namespace wl = models::workload;
namespace tco = models::tco;
using A = TextTable::Align;

namespace {

// "5.66 kJ", "190 J": si_scaled's prefix, or a plain space, before the unit.
std::string with_unit(double value, const char* unit) {
  const std::string scaled = si_scaled(value);
  return fmt::format("{}{}{}", scaled, scaled.back() >= '0' && scaled.back() <= '9' ? " " : "", unit);
}
std::string joules(double j) { return with_unit(j, "J"); }
std::string kwh(double kwh) { return with_unit(kwh * 1e3, "Wh"); }
std::string watts(double w) { return with_unit(w, "W"); }
std::string usd(double x) { return fmt::format("${}", si_scaled(x)); }
std::string carbon(double kg) {
  if (std::isnan(kg)) return "-";
  if (std::abs(kg) >= 1000) return fmt::format("{:.3g} t", kg / 1000);
  return std::abs(kg) >= 1 || kg == 0 ? fmt::format("{:.3g} kg", kg) : fmt::format("{:.3g} g", kg * 1000);
}
std::string share(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }
std::string duration(double s) {
  if (s < 120) return fmt::format("{:.3g} s", s);
  if (s < 7200) return fmt::format("{:.3g} min", s / 60);
  if (s < 3 * 86400) return fmt::format("{:.3g} h", s / 3600);
  return fmt::format("{:.3g} days", s / 86400);
}

// The scopes shown side by side: per iteration, per million tokens, and the whole run.
struct Scope {
  std::string heading;
  const tco::Totals* totals;
};

nlohmann::ordered_json totals_json(const tco::Totals& t) {
  const auto number = [](double x) { return std::isnan(x) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x); };
  return {{"seconds", t.seconds},
          {"device_hours", t.device_hours},
          {"tokens", t.tokens},
          {"it_energy_kwh", t.it_energy_kwh},
          {"facility_energy_kwh", t.facility_energy_kwh},
          {"capex_amortized_usd", t.capex_amortized_usd},
          {"energy_usd", t.energy_usd},
          {"maintenance_usd", t.maintenance_usd},
          {"opex_usd", t.opex_usd},
          {"cost_usd", t.cost_usd},
          {"operational_kgco2e", t.operational_kgco2e},
          {"embodied_llmcarbon_kgco2e", number(t.embodied_llmcarbon_kgco2e)},
          {"embodied_act_kgco2e", number(t.embodied_act_kgco2e)},
          {"embodied_kgco2e", t.embodied_kgco2e},
          {"carbon_kgco2e", t.carbon_kgco2e},
          {"cloud_equivalent_usd", t.cloud_equivalent_usd}};
}

nlohmann::ordered_json tco_json(const tco::TcoReport& r) {
  const auto number = [](double x) { return std::isnan(x) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x); };
  nlohmann::ordered_json breakdown = nlohmann::ordered_json::array();
  for (const auto& row : r.breakdown)
    breakdown.push_back({{"item", row.item}, {"cost_usd", row.cost_usd}, {"carbon_kgco2e", row.carbon_kgco2e}});
  return {{"iterations", r.iterations},
          {"capex_usd",
           {{"accelerators", r.accelerators_capex_usd},
            {"hosts", r.hosts_capex_usd},
            {"network", r.network_capex_usd},
            {"facility", r.facility_capex_usd},
            {"hardware", r.hardware_capex_usd},
            {"total", r.capex_usd}}},
          {"provisioned_it_kw", r.provisioned_it_kw},
          {"mean_it_power_kw", r.mean_it_power_kw},
          {"hardware_value_lost", r.hardware_value_lost},
          {"facility_value_lost", r.facility_value_lost},
          {"amortized_capex_usd_per_hour", r.amortized_capex_usd_per_hour},
          {"opex_usd_per_hour", r.opex_usd_per_hour},
          {"cost_usd_per_hour", r.cost_usd_per_hour},
          {"embodied_per_unit_kgco2e",
           {{"accelerator_die_llmcarbon", number(r.accelerator_die_llmcarbon_kg)},
            {"accelerator_die_act", number(r.accelerator_die_act_kg)},
            {"accelerator_memory", r.accelerator_memory_kg},
            {"host_llmcarbon", number(r.host_llmcarbon_kg)},
            {"host_act", number(r.host_act_kg)}}},
          {"embodied_share", r.embodied_share},
          {"per_iteration", totals_json(r.per_iteration)},
          {"per_million_tokens", totals_json(r.per_million_tokens)},
          {"whole_run", totals_json(r.whole_run)},
          {"breakdown", breakdown},
          {"notes", r.notes}};
}

}  // namespace

std::string energy_summary(const wl::TrainingReport& r) {
  std::string out;
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
  row("total (IT)", e.total());
  out += energy.render();
  if (r.iterations > 1)
    out += fmt::format("(mean power over the {} simulated iterations, {} in all, over the last iteration's time)\n",
                       r.iterations, joules(r.energy.total().joules()));
  out += "\n";
  if (!r.tco) return out;
  const tco::TcoReport& t = *r.tco;

  std::vector<Scope> scopes{{"per iteration", &t.per_iteration}};
  if (t.per_million_tokens.tokens > 0) scopes.push_back({"per million tokens", &t.per_million_tokens});
  scopes.push_back({r.token_budget > 0 ? fmt::format("whole run ({} tokens)", si_scaled(static_cast<double>(r.token_budget)))
                                       : fmt::format("simulated ({} iterations)", t.iterations),
                    &t.whole_run});
  std::vector<std::string> headings{"cost and carbon"};
  std::vector<A> align{A::left};
  for (const auto& s : scopes) {
    headings.push_back(s.heading);
    align.push_back(A::right);
  }
  TextTable costs(headings, align);
  const auto add = [&](const char* name, auto format, double tco::Totals::*field) {
    std::vector<std::string> cells{name};
    for (const auto& s : scopes) cells.push_back(format(s.totals->*field));
    costs.add_row(std::move(cells));
  };
  add("time", duration, &tco::Totals::seconds);
  add("device-hours", [](double x) { return si_scaled(x); }, &tco::Totals::device_hours);
  add("IT energy", kwh, &tco::Totals::it_energy_kwh);
  add("facility energy (x PUE)", kwh, &tco::Totals::facility_energy_kwh);
  add("capex, amortized", usd, &tco::Totals::capex_amortized_usd);
  add("electricity", usd, &tco::Totals::energy_usd);
  add("maintenance", usd, &tco::Totals::maintenance_usd);
  add("cost", usd, &tco::Totals::cost_usd);
  add("cloud equivalent (comparison)", usd, &tco::Totals::cloud_equivalent_usd);
  add("carbon, operational", carbon, &tco::Totals::operational_kgco2e);
  add("carbon, embodied", carbon, &tco::Totals::embodied_kgco2e);
  add("carbon, total (CO2e)", carbon, &tco::Totals::carbon_kgco2e);
  out += costs.render();
  out += fmt::format("capex {} (accelerators {}, hosts {}, network {}, facility {} for {} provisioned); "
                     "{:.3g} % of the hardware's value used\n\n",
                     usd(t.capex_usd), usd(t.accelerators_capex_usd), usd(t.hosts_capex_usd), usd(t.network_capex_usd),
                     usd(t.facility_capex_usd), watts(t.provisioned_it_kw * 1e3), 100 * t.hardware_value_lost);

  TextTable breakdown({r.token_budget > 0 ? "whole run by item" : "simulated iterations by item", "cost", "share",
                       "carbon (CO2e)", "share"},
                      {A::left, A::right, A::right, A::right, A::right});
  for (const auto& row_ : t.breakdown)
    breakdown.add_row({row_.item, usd(row_.cost_usd), share(row_.cost_usd, t.whole_run.cost_usd),
                       carbon(row_.carbon_kgco2e), share(row_.carbon_kgco2e, t.whole_run.carbon_kgco2e)});
  out += breakdown.render();
  for (const auto& note : t.notes) out += fmt::format("note: {}\n", note);
  out += "\n";
  return out;
}

nlohmann::ordered_json energy_json(const wl::TrainingReport& r) {
  const auto& x = r.energy;
  const auto& e = r.energy_per_iteration_joules;
  nlohmann::ordered_json limbs = nlohmann::ordered_json::array();
  for (const auto limb : x.limbs()) limbs.push_back(limb);
  return {{"simulated_time_ps", r.simulated_time},
          {"energy_j",
           {{"accelerators", x.accelerators.joules()},
            {"hosts", x.hosts.joules()},
            {"nics", x.nics.joules()},
            {"switches", x.switches.joules()},
            {"total", x.total().joules()}}},
          {"energy_limbs", limbs},
          {"mean_it_power_w", r.mean_it_watts},
          {"energy_per_iteration_j",
           {{"accelerators", e.accelerators},
            {"hosts", e.hosts},
            {"nics", e.nics},
            {"switches", e.switches},
            {"total", e.total()}}},
          {"token_budget", r.token_budget},
          {"tco", r.tco ? tco_json(*r.tco) : nlohmann::ordered_json(nullptr)}};
}

}  // namespace rackscale::io
