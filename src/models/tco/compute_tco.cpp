#include "models/tco/compute_tco.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "models/tco/embodied_carbon.hpp"

namespace rackscale::models::tco {
namespace {

constexpr double kSecondsPerHour = 3600.0;
constexpr double kJoulesPerKwh = 3.6e6;
constexpr double kSecondsPerYear = 365.25 * 86400.0;  // Julian year
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Totals scaled(const Totals& t, double f) {
  Totals s;
  s.seconds = t.seconds * f;
  s.device_hours = t.device_hours * f;
  s.tokens = t.tokens * f;
  s.it_energy_kwh = t.it_energy_kwh * f;
  s.facility_energy_kwh = t.facility_energy_kwh * f;
  s.capex_amortized_usd = t.capex_amortized_usd * f;
  s.energy_usd = t.energy_usd * f;
  s.maintenance_usd = t.maintenance_usd * f;
  s.opex_usd = t.opex_usd * f;
  s.cost_usd = t.cost_usd * f;
  s.operational_kgco2e = t.operational_kgco2e * f;
  s.embodied_llmcarbon_kgco2e = t.embodied_llmcarbon_kgco2e * f;
  s.embodied_act_kgco2e = t.embodied_act_kgco2e * f;
  s.embodied_kgco2e = t.embodied_kgco2e * f;
  s.carbon_kgco2e = t.carbon_kgco2e * f;
  s.cloud_equivalent_usd = t.cloud_equivalent_usd * f;
  return s;
}

std::string node_name(double nm) {
  std::string s = std::to_string(nm);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + " nm";
}

// Per-unit embodied carbon, both methods.
struct Embodied {
  double die_llmcarbon = kNaN;
  double die_act = kNaN;
  double accelerator_memory = 0;
  double host_llmcarbon = kNaN;
  double host_act = kNaN;
};

double die_llmcarbon(const EmbodiedSettings& e, std::vector<std::string>& notes) {
  if (e.cpa_kg_per_cm2 > 0) return llmcarbon_die_kg(e.die_area_mm2, e.cpa_kg_per_cm2);
  const auto cpa = llmcarbon_cpa(e.process_nm);
  if (!cpa) {
    notes.push_back("LLMCarbon has no carbon per area for " + node_name(e.process_nm) +
                    " (table: 16, 12, 7, 4 nm); set embodied.cpa_kg_per_cm2");
    return kNaN;
  }
  if (cpa->interpolated) {
    notes.push_back("LLMCarbon carbon per area for " + node_name(e.process_nm) +
                    " interpolated between the table's nodes (assumption)");
  }
  return llmcarbon_die_kg(e.die_area_mm2, cpa->kg_per_cm2);
}

double die_act(const EmbodiedSettings& e, std::vector<std::string>& notes) {
  std::optional<ActNodeFigures> node = e.act_node;
  if (!node) {
    node = act_node_figures(e.process_nm, e.abatement);
    if (!node) {
      notes.push_back("ACT has no figures for " + node_name(e.process_nm) +
                      " (table: 7, 5, 3 nm); set embodied.act to use it");
      return kNaN;
    }
    if (node->interpolated) {
      notes.push_back("ACT figures for " + node_name(e.process_nm) +
                      " interpolated between the table's nodes (assumption)");
    }
  }
  return act_die_kg(e.die_area_mm2, *node, e.fab_grid_g_per_kwh, e.yield);
}

Embodied embodied_per_unit(const EmbodiedSettings& e, std::vector<std::string>& notes) {
  Embodied out;
  out.accelerator_memory = memory_storage_kg(e.accelerator_memory_gb, 0);
  if (e.die_area_mm2 <= 0) {
    // No die area (a preset without one): nothing to charge per area, whatever the node.
    out.die_llmcarbon = out.die_act = 0;
    notes.push_back("accelerator die area unknown: its embodied carbon is not counted");
  } else {
    out.die_llmcarbon = die_llmcarbon(e, notes);
    out.die_act = die_act(e, notes);
  }

  // Hosts: DRAM and SSD by LLMCarbon's per-GB figures in both methods (the reference gives ACT's
  // figures for logic dies only); CPU dies by each method when an area is given.
  const double host_memory = memory_storage_kg(e.host_dram_gb, e.host_ssd_gb);
  if (e.host_cpu_die_area_mm2 <= 0) {
    out.host_llmcarbon = host_memory;
    out.host_act = host_memory;
  } else {
    if (const auto cpa = llmcarbon_cpa(e.host_cpu_process_nm)) {
      out.host_llmcarbon = host_memory + llmcarbon_die_kg(e.host_cpu_die_area_mm2, cpa->kg_per_cm2);
    }
    if (const auto node = act_node_figures(e.host_cpu_process_nm, e.abatement)) {
      out.host_act = host_memory + act_die_kg(e.host_cpu_die_area_mm2, *node, e.fab_grid_g_per_kwh, e.yield);
    }
    if (std::isnan(out.host_llmcarbon) || std::isnan(out.host_act)) {
      notes.push_back("host CPU node " + node_name(e.host_cpu_process_nm) + " is outside a method's table");
    }
  }
  return out;
}

// The network's purchase cost and embodied carbon (before the run's share) by breakdown row.
struct NetworkCost3 {
  std::array<double, 3> usd{};
  std::array<double, 3> chosen_kg{};     // the chosen method, each item falling back to the other
  std::array<bool, 3> counted{};         // a row has at least one item with a figure
  double llmcarbon_kg = 0;               // every item by LLMCarbon where it has a figure, else ACT
  double act_kg = 0;                     // every item by ACT where it has a figure, else LLMCarbon
};

NetworkCost3 network_cost(const TcoInputs& in, std::vector<std::string>& notes) {
  NetworkCost3 n;
  const Prices& p = in.prices;
  const EmbodiedSettings& e = in.embodied;
  std::vector<NetworkItem> items = in.network_items;
  if (items.empty()) {
    const auto& c = in.counts;
    items = {{"NICs", NetworkPart::nics, c.nics, p.nic_usd.value_or(p.fallback_nic_usd), 0, 0},
             {"switches", NetworkPart::switches, c.switches, p.switch_usd.value_or(p.fallback_switch_usd), 0, 0},
             {"optical ports", NetworkPart::optics, c.optical_ports,
              p.optics_per_port_usd.value_or(p.fallback_optics_per_port_usd), 0, 0}};
  }
  bool fell_back = false, missing = false;
  for (const NetworkItem& item : items) {
    const auto part = static_cast<std::size_t>(item.part);
    const double count = static_cast<double>(item.count);
    n.usd[part] += count * item.unit_usd;
    if (item.die_area_mm2 <= 0 || item.count == 0) continue;
    const ChipCarbon chip = chip_embodied_kg(item.die_area_mm2, item.process_nm, e.fab_grid_g_per_kwh, e.abatement, e.yield);
    const bool llm = !std::isnan(chip.llmcarbon_kg), act = !std::isnan(chip.act_kg);
    if (!llm && !act) {
      missing = true;
      continue;
    }
    const double llm_kg = llm ? chip.llmcarbon_kg : chip.act_kg;
    const double act_kg = act ? chip.act_kg : chip.llmcarbon_kg;
    const bool use_act = e.method == EmbodiedMethod::act;
    fell_back = fell_back || (use_act ? !act : !llm);
    n.llmcarbon_kg += count * llm_kg;
    n.act_kg += count * act_kg;
    n.chosen_kg[part] += count * (use_act ? act_kg : llm_kg);
    n.counted[part] = true;
  }
  if (fell_back) notes.push_back("embodied carbon of network chips outside the chosen method's node table: the other method's figure used");
  if (missing) notes.push_back("embodied carbon of network chips outside both methods' node tables: not counted");
  return n;
}

}  // namespace

TcoReport compute_tco(const TcoInputs& in, const RunMeasures& m) {
  validate(in);
  if (m.iteration_time == 0) throw std::invalid_argument("run: the iteration time must be positive");

  TcoReport r;
  r.token_budget = in.token_budget;
  std::vector<std::string>& notes = r.notes;

  // --- Run size -------------------------------------------------------------------------------------
  if (m.iterations > 0) {
    r.iterations = m.iterations;
  } else if (in.token_budget > 0 && m.tokens_per_iteration > 0) {
    r.iterations = iterations_for_tokens(in.token_budget, m.tokens_per_iteration);
    if (in.token_budget % m.tokens_per_iteration != 0) {
      notes.push_back("token budget rounded up to whole iterations");
    }
  } else {
    throw std::invalid_argument("run: give the number of iterations, or tco.token_budget and tokens per iteration");
  }
  const double iterations = static_cast<double>(r.iterations);
  const double run_seconds = pdes::to_seconds(m.iteration_time) * iterations;
  const double run_hours = run_seconds / kSecondsPerHour;
  const double run_years = run_seconds / kSecondsPerYear;
  const double devices = static_cast<double>(m.devices > 0 ? m.devices : in.counts.accelerators);
  const double tokens = static_cast<double>(m.tokens_per_iteration) * iterations;

  // --- Capex ----------------------------------------------------------------------------------------
  const Prices& p = in.prices;
  const auto& c = in.counts;
  r.accelerators_capex_usd = static_cast<double>(c.accelerators) * p.accelerator_usd;
  r.hosts_capex_usd = (p.server_factor - 1.0) * r.accelerators_capex_usd;
  const double servers = r.accelerators_capex_usd + r.hosts_capex_usd;
  const NetworkCost3 net = network_cost(in, notes);
  // NICs bought with the servers are in the server factor's price already: no network capex of their own.
  const double nics_usd = p.nics_in_server ? 0.0 : net.usd[0];
  const double switches_usd = net.usd[1], optics_usd = net.usd[2];
  if (p.network == NetworkCost::itemized && p.nics_in_server && net.usd[0] > 0) {
    notes.push_back("NICs priced in the servers (tco.prices.nics_in_server): no network capex of their own; their "
                    "energy and embodied carbon are counted");
  }
  if (p.network == NetworkCost::itemized) {
    r.network_capex_usd = nics_usd + switches_usd + optics_usd;
  } else {
    // Networking is a share s of the whole cluster: cluster = servers / (1 - s).
    r.network_capex_usd = servers * (1.0 / (1.0 - p.cottier_network_share) - 1.0);
  }
  r.hardware_capex_usd = servers + r.network_capex_usd;

  const double it_joules_per_iteration = m.it_joules_per_iteration.total();
  r.mean_it_power_kw = it_joules_per_iteration / pdes::to_seconds(m.iteration_time) / 1e3;
  if (in.provisioned_it_watts > 0) {
    r.provisioned_it_kw = in.provisioned_it_watts / 1e3;
  } else {
    r.provisioned_it_kw = r.mean_it_power_kw;
    notes.push_back("facility sized for the run's mean IT power (tco.provisioned_it_power not given): a lower bound");
  }
  r.facility_capex_usd = r.provisioned_it_kw / 1e3 * p.facility_usd_per_mw;
  r.capex_usd = r.hardware_capex_usd + r.facility_capex_usd;

  // --- Amortization ---------------------------------------------------------------------------------
  r.hardware_value_lost = value_lost(in.depreciation, in.hardware_age_years, run_years, in.lifetime_years,
                                     in.decay_oom_per_year);
  r.facility_value_lost =
      value_lost(Depreciation::straight_line, 0.0, run_years, in.facility_lifetime_years, in.decay_oom_per_year);
  if (in.depreciation == Depreciation::straight_line && in.hardware_age_years + run_years > in.lifetime_years) {
    notes.push_back("the run outlives the hardware's straight-line lifetime: capex charged only up to it");
  }

  // --- Energy ---------------------------------------------------------------------------------------
  const EnergyByClass& e = m.it_joules_per_iteration;
  const double energy_price_per_joule = in.pue * p.electricity_usd_per_kwh / kJoulesPerKwh;
  const double carbon_per_joule = in.pue * in.grid_g_per_kwh / 1000.0 / kJoulesPerKwh;  // kg per IT joule

  // --- Embodied -------------------------------------------------------------------------------------
  const Embodied unit = embodied_per_unit(in.embodied, notes);
  r.accelerator_die_llmcarbon_kg = unit.die_llmcarbon;
  r.accelerator_die_act_kg = unit.die_act;
  r.accelerator_memory_kg = unit.accelerator_memory;
  r.host_llmcarbon_kg = unit.host_llmcarbon;
  r.host_act_kg = unit.host_act;
  r.embodied_share = embodied_share(run_years, in.lifetime_years);
  const double n_acc = static_cast<double>(c.accelerators);
  const double n_hosts = static_cast<double>(c.hosts);
  const auto charged = [&](double die, double host, double& acc_out, double& host_out) {
    acc_out = r.embodied_share * n_acc * (die + unit.accelerator_memory);
    host_out = r.embodied_share * n_hosts * host;
    return acc_out + host_out;
  };
  double acc_llm = 0, host_llm = 0, acc_act = 0, host_act = 0;
  const double total_llm = charged(unit.die_llmcarbon, unit.host_llmcarbon, acc_llm, host_llm);
  const double total_act = charged(unit.die_act, unit.host_act, acc_act, host_act);
  bool use_act = in.embodied.method == EmbodiedMethod::act;
  if (use_act && std::isnan(total_act) && !std::isnan(total_llm)) {
    use_act = false;
    notes.push_back("embodied carbon: ACT has no figure, LLMCarbon used instead");
  } else if (!use_act && std::isnan(total_llm) && !std::isnan(total_act)) {
    use_act = true;
    notes.push_back("embodied carbon: LLMCarbon has no figure, ACT used instead");
  }
  double acc_embodied = use_act ? acc_act : acc_llm;
  double host_embodied = use_act ? host_act : host_llm;
  if (std::isnan(acc_embodied) || std::isnan(host_embodied)) {
    acc_embodied = host_embodied = 0;
    r.embodied_counted = false;
    notes.push_back("embodied carbon: no method has figures for this hardware; not counted");
  }
  // The network's chips (itemized only: Cottier's share has no items to weigh).
  const bool network_items = p.network == NetworkCost::itemized;
  std::array<double, 3> net_embodied{};
  for (std::size_t i = 0; i < 3 && network_items; ++i) net_embodied[i] = r.embodied_share * net.chosen_kg[i];
  const double network_embodied = net_embodied[0] + net_embodied[1] + net_embodied[2];
  r.network_embodied_kg = network_items ? net.chosen_kg[0] + net.chosen_kg[1] + net.chosen_kg[2] : 0.0;

  // --- Whole run ------------------------------------------------------------------------------------
  Totals& w = r.whole_run;
  w.seconds = run_seconds;
  w.device_hours = devices * run_hours;
  w.tokens = tokens;
  w.it_energy_kwh = it_joules_per_iteration * iterations / kJoulesPerKwh;
  w.facility_energy_kwh = w.it_energy_kwh * in.pue;
  const double acc_amortized = r.accelerators_capex_usd * r.hardware_value_lost;
  const double hosts_amortized = r.hosts_capex_usd * r.hardware_value_lost;
  const double facility_amortized = r.facility_capex_usd * r.facility_value_lost;
  w.capex_amortized_usd = r.hardware_capex_usd * r.hardware_value_lost + facility_amortized;
  w.energy_usd = w.facility_energy_kwh * p.electricity_usd_per_kwh;
  w.maintenance_usd = in.maintenance_fraction_per_year * r.hardware_capex_usd * run_years;
  w.opex_usd = w.energy_usd + w.maintenance_usd;
  w.cost_usd = w.capex_amortized_usd + w.opex_usd;
  w.operational_kgco2e = w.facility_energy_kwh * in.grid_g_per_kwh / 1000.0;
  w.embodied_llmcarbon_kgco2e = total_llm + (network_items ? r.embodied_share * net.llmcarbon_kg : 0.0);
  w.embodied_act_kgco2e = total_act + (network_items ? r.embodied_share * net.act_kg : 0.0);
  w.embodied_kgco2e = acc_embodied + host_embodied + network_embodied;
  w.carbon_kgco2e = w.operational_kgco2e + w.embodied_kgco2e;
  w.cloud_equivalent_usd = w.device_hours * p.cloud_usd_per_device_hour;

  r.per_iteration = scaled(w, 1.0 / iterations);
  if (tokens > 0) r.per_million_tokens = scaled(w, 1e6 / tokens);
  r.amortized_capex_usd_per_hour = w.capex_amortized_usd / run_hours;
  r.opex_usd_per_hour = w.opex_usd / run_hours;
  r.cost_usd_per_hour = w.cost_usd / run_hours;

  // --- Breakdown (whole run) ------------------------------------------------------------------------
  auto& rows = r.breakdown;
  // Items whose carbon the model does not count have none (not 0): network items without a chip figure,
  // Cottier's network share, the facility and maintenance.
  const auto embodied = [&](double kg) { return r.embodied_counted ? std::optional<double>(kg) : std::nullopt; };
  rows.push_back({"accelerators", acc_amortized, embodied(acc_embodied)});
  rows.push_back({"hosts (server factor)", hosts_amortized, embodied(host_embodied)});
  if (p.network == NetworkCost::itemized) {
    const auto network_row = [&](const char* item, std::size_t part, double usd) {
      rows.push_back({item, usd * r.hardware_value_lost,
                      net.counted[part] ? std::optional<double>(net_embodied[part]) : std::nullopt});
    };
    network_row("NICs", 0, nics_usd);
    network_row("switches", 1, switches_usd);
    network_row("optics and cables", 2, optics_usd);
  } else {
    rows.push_back({"network (Cottier share)", r.network_capex_usd * r.hardware_value_lost, std::nullopt});
  }
  rows.push_back({"facility", facility_amortized, std::nullopt});
  rows.push_back({"maintenance", w.maintenance_usd, std::nullopt});
  const auto energy_row = [&](const char* item, double joules_per_iteration) {
    const double joules = joules_per_iteration * iterations;
    rows.push_back({item, joules * energy_price_per_joule, joules * carbon_per_joule});
  };
  energy_row("energy: accelerators", e.accelerators);
  energy_row("energy: hosts", e.hosts);
  energy_row("energy: NICs", e.nics);
  energy_row("energy: switches", e.switches);
  energy_row("energy: optics", e.optics);
  // Nothing else is metered in a training run; accounting without a simulation may give a whole
  // system's power per device.
  if (e.other > 0) energy_row("energy: other", e.other);
  return r;
}

}  // namespace rackscale::models::tco
