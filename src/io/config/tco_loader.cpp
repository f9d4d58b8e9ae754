#include "io/config/tco_loader.hpp"

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "io/config/units.hpp"
#include "models/tco/grid_intensity.hpp"

namespace rackscale::io {
namespace {

namespace tco = models::tco;

// Prices are plain numbers of USD: the unit grammar has no currency.
double read_price(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); }
double read_non_negative(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); }
double read_positive(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0, true); }

// A number in [0, 1] (or [0, 1) when `below_one`).
double read_unit_interval(const ConfigNode& n, const std::string& p, bool below_one) {
  const double v = read_number(n, p, 0.0);
  if (below_one ? v >= 1.0 : v > 1.0)
    fail(n, p, fmt::format("expected a number in [0, 1{}, found {}", below_one ? ")" : "]", quote_found(n.scalar)));
  return v;
}

// `auto`, or what `read` reads: nullopt for auto.
template <class Read>
auto read_auto_or(const ConfigNode& n, const std::string& p, Read read) -> std::optional<decltype(read(n, p))> {
  if (n.is_scalar() && n.scalar == "auto") return std::nullopt;
  return read(n, p);
}

// A size in decimal gigabytes (the unit of LLMCarbon's per-GB figures).
double read_gigabytes(const ConfigNode& n, const std::string& p) { return static_cast<double>(read_size(n, p)) / 1e9; }

std::vector<std::string> grid_names() {
  std::vector<std::string> names;
  for (const auto& g : tco::grid_presets()) names.emplace_back(g.name);
  return names;
}

// A grid preset by name, or an intensity in gCO2e/kWh under the paired key; never both.
double read_grid(const MapReader& r, const char* preset_key, const char* intensity_key, double fallback) {
  if (r.has(preset_key) && r.has(intensity_key))
    fail(r.require(intensity_key), r.path_of(intensity_key),
         fmt::format("expected either {} (a preset) or {} (gCO2e per kWh), found both", r.path_of(preset_key),
                     r.path_of(intensity_key)));
  if (const ConfigNode* n = r.find(intensity_key)) return read_non_negative(*n, r.path_of(intensity_key));
  if (const ConfigNode* n = r.find(preset_key)) {
    const auto names = grid_names();
    return *tco::grid_intensity_g_per_kwh(names[read_choice(*n, r.path_of(preset_key), names)]);
  }
  return fallback;
}

void read_prices(const ConfigNode& node, const std::string& path, tco::TcoSettings& s, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"accelerator", "server_factor", "nics_in_server", "nic", "switch", "optics_per_port", "network", "network_share",
                     "facility_per_mw", "cloud_per_device_hour"},
                    locations);
  tco::Prices& p = s.inputs.prices;
  if (const ConfigNode* n = r.find("accelerator")) {
    if (const auto price = read_auto_or(*n, r.path_of("accelerator"), read_price)) {
      p.accelerator_usd = *price;
      s.accelerator_price_assumed = false;
    }
  }
  p.server_factor = r.optional("server_factor", p.server_factor,
                               [](const ConfigNode& n, const std::string& k) { return read_number(n, k, 1.0); });
  p.nics_in_server = r.optional("nics_in_server", p.nics_in_server, [](const ConfigNode& n, const std::string& k) {
    return read_enum<bool>(n, k, {{"true", true}, {"false", false}});
  });
  // auto (the default): each unit at its preset's price; a number prices every unit of the kind.
  const auto override_price = [&](const char* key, std::optional<double>& price) {
    if (const ConfigNode* n = r.find(key)) price = read_auto_or(*n, r.path_of(key), read_price);
  };
  override_price("nic", p.nic_usd);
  override_price("switch", p.switch_usd);
  override_price("optics_per_port", p.optics_per_port_usd);
  p.network = r.optional("network", p.network, [](const ConfigNode& n, const std::string& k) {
    return read_enum<tco::NetworkCost>(
        n, k, {{"itemized", tco::NetworkCost::itemized}, {"cottier_factor", tco::NetworkCost::cottier_factor}});
  });
  if (p.network != tco::NetworkCost::cottier_factor) r.forbid("network_share", "only allowed with network: cottier_factor");
  p.cottier_network_share = r.optional("network_share", p.cottier_network_share,
                                       [](const ConfigNode& n, const std::string& k) { return read_unit_interval(n, k, true); });
  p.facility_usd_per_mw = r.optional("facility_per_mw", p.facility_usd_per_mw, read_price);
  p.cloud_usd_per_device_hour = r.optional("cloud_per_device_hour", p.cloud_usd_per_device_hour, read_price);
}

void read_power_section(const ConfigNode& node, const std::string& path, tco::TcoSettings& s, KeyLocations* locations) {
  const MapReader r(node, path, {"host_idle", "host_active", "memory_bound_activity"}, locations);
  s.host_idle_watts = r.optional("host_idle", s.host_idle_watts, read_power);
  s.host_active_watts = r.optional("host_active", s.host_active_watts, read_power);
  if (s.host_active_watts < s.host_idle_watts) {
    // Blame the value written last in the pair's logic: host_active if written, else host_idle.
    if (const ConfigNode* active = r.find("host_active"))
      fail(*active, r.path_of("host_active"),
           fmt::format("expected a power >= host_idle ({} W), found {}", s.host_idle_watts, quote_found(active->scalar)));
    const ConfigNode& idle = r.require("host_idle");
    fail(idle, r.path_of("host_idle"),
         fmt::format("expected a power <= host_active ({} W), found {}", s.host_active_watts, quote_found(idle.scalar)));
  }
  s.memory_bound_activity = r.optional("memory_bound_activity", s.memory_bound_activity,
                                       [](const ConfigNode& n, const std::string& k) { return read_unit_interval(n, k, false); });
}

tco::ActNodeFigures read_act_figures(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path, {"epa_kwh_per_cm2", "gpa_g_per_cm2", "mpa_g_per_cm2"}, locations);
  tco::ActNodeFigures f;
  f.epa_kwh_per_cm2 = r.required("epa_kwh_per_cm2", read_non_negative);
  f.gpa_g_per_cm2 = r.required("gpa_g_per_cm2", read_non_negative);
  f.mpa_g_per_cm2 = r.optional("mpa_g_per_cm2", f.mpa_g_per_cm2, read_non_negative);
  return f;
}

void read_embodied(const ConfigNode& node, const std::string& path, tco::EmbodiedSettings& e, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"method", "host_dram", "host_ssd", "host_cpu_die_area_mm2", "host_cpu_process_nm",
                     "cpa_kg_per_cm2", "act", "fab_grid", "fab_grid_intensity", "abatement", "yield"},
                    locations);
  e.method = r.optional("method", e.method, [](const ConfigNode& n, const std::string& k) {
    return read_enum<tco::EmbodiedMethod>(n, k,
                                          {{"llmcarbon", tco::EmbodiedMethod::llmcarbon}, {"act", tco::EmbodiedMethod::act}});
  });
  e.host_dram_gb = r.optional("host_dram", e.host_dram_gb, read_gigabytes);
  e.host_ssd_gb = r.optional("host_ssd", e.host_ssd_gb, read_gigabytes);
  e.host_cpu_die_area_mm2 = r.optional("host_cpu_die_area_mm2", e.host_cpu_die_area_mm2, read_non_negative);
  e.host_cpu_process_nm = r.optional("host_cpu_process_nm", e.host_cpu_process_nm, read_positive);
  if (const ConfigNode* n = r.find("cpa_kg_per_cm2"))
    e.cpa_kg_per_cm2 = read_auto_or(*n, r.path_of("cpa_kg_per_cm2"), read_positive).value_or(0.0);
  if (const ConfigNode* n = r.find("act")) {
    if (!(n->is_scalar() && n->scalar == "auto")) {
      if (!n->is_mapping())
        fail(*n, r.path_of("act"),
             "expected auto or a mapping {epa_kwh_per_cm2, gpa_g_per_cm2, mpa_g_per_cm2}, found " + describe_found(*n));
      e.act_node = read_act_figures(*n, r.path_of("act"), locations);
    }
  }
  e.fab_grid_g_per_kwh = read_grid(r, "fab_grid", "fab_grid_intensity", e.fab_grid_g_per_kwh);
  e.abatement = r.optional("abatement", e.abatement, [](const ConfigNode& n, const std::string& k) {
    return read_enum<tco::GasAbatement>(n, k, {{"95", tco::GasAbatement::percent95}, {"99", tco::GasAbatement::percent99}});
  });
  e.yield = r.optional("yield", e.yield, read_fraction);
}

}  // namespace

models::tco::TcoSettings read_tco(const ConfigNode* node, const models::network::ClusterSpec& cluster,
                                  KeyLocations* locations) {
  tco::TcoSettings s = tco::default_settings(cluster.accelerator);
  if (node == nullptr) return s;
  const MapReader r(*node, "tco",
                    {"token_budget", "lifetime_years", "depreciation", "decay_oom_per_year", "hardware_age_years",
                     "facility_lifetime_years", "pue", "electricity_price", "grid", "grid_intensity",
                     "maintenance_per_year", "provisioned_it_power", "prices", "power", "embodied"},
                    locations);
  tco::TcoInputs& in = s.inputs;
  in.token_budget = r.optional("token_budget", in.token_budget, [](const ConfigNode& n, const std::string& k) {
    const std::uint64_t tokens = read_whole_number(n, k);
    if (tokens == 0) fail(n, k, "expected a whole number >= 1 (tokens of the whole run), found " + quote_found(n.scalar));
    return tokens;
  });
  in.lifetime_years = r.optional("lifetime_years", in.lifetime_years, read_positive);
  in.depreciation = r.optional("depreciation", in.depreciation, [](const ConfigNode& n, const std::string& k) {
    return read_enum<tco::Depreciation>(
        n, k, {{"straight_line", tco::Depreciation::straight_line}, {"exponential", tco::Depreciation::exponential}});
  });
  if (in.depreciation != tco::Depreciation::exponential)
    for (const char* key : {"decay_oom_per_year", "hardware_age_years"})
      r.forbid(key, "only allowed with depreciation: exponential");
  in.decay_oom_per_year = r.optional("decay_oom_per_year", in.decay_oom_per_year, read_non_negative);
  in.hardware_age_years = r.optional("hardware_age_years", in.hardware_age_years, read_non_negative);
  in.facility_lifetime_years = r.optional("facility_lifetime_years", in.facility_lifetime_years, read_positive);
  in.pue = r.optional("pue", in.pue, [](const ConfigNode& n, const std::string& k) { return read_number(n, k, 1.0); });
  in.prices.electricity_usd_per_kwh = r.optional("electricity_price", in.prices.electricity_usd_per_kwh, read_price);
  in.grid_g_per_kwh = read_grid(r, "grid", "grid_intensity", in.grid_g_per_kwh);
  in.maintenance_fraction_per_year = r.optional("maintenance_per_year", in.maintenance_fraction_per_year, read_non_negative);
  if (const ConfigNode* n = r.find("provisioned_it_power"))
    in.provisioned_it_watts = read_auto_or(*n, r.path_of("provisioned_it_power"), [](const ConfigNode& v, const std::string& k) {
                                const double watts = read_power(v, k);
                                if (!(watts > 0)) fail(v, k, "expected auto or a power > 0, found " + quote_found(v.scalar));
                                return watts;
                              }).value_or(0.0);
  if (const ConfigNode* n = r.find("prices")) read_prices(*n, r.path_of("prices"), s, locations);
  if (const ConfigNode* n = r.find("power")) read_power_section(*n, r.path_of("power"), s, locations);
  if (const ConfigNode* n = r.find("embodied")) read_embodied(*n, r.path_of("embodied"), in.embodied, locations);
  return s;
}

}  // namespace rackscale::io
