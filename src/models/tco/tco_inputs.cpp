#include "models/tco/tco_inputs.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace rackscale::models::tco {
namespace {

void require(bool ok, const char* field, const char* rule) {
  if (!ok) throw std::invalid_argument(std::string("tco.") + field + ": " + rule);
}

bool finite_non_negative(double x) { return std::isfinite(x) && x >= 0; }

}  // namespace

void validate(const TcoInputs& in) {
  const Prices& p = in.prices;
  require(finite_non_negative(p.accelerator_usd), "prices.accelerator", "must be a non-negative price");
  require(std::isfinite(p.server_factor) && p.server_factor >= 1, "prices.server_factor",
          "must be at least 1 (the server includes its accelerators)");
  require(finite_non_negative(p.nic_usd.value_or(p.fallback_nic_usd)), "prices.nic", "must be a non-negative price");
  require(finite_non_negative(p.switch_usd.value_or(p.fallback_switch_usd)), "prices.switch",
          "must be a non-negative price");
  require(finite_non_negative(p.optics_per_port_usd.value_or(p.fallback_optics_per_port_usd)),
          "prices.optics_per_port", "must be a non-negative price");
  for (const NetworkItem& item : in.network_items) {
    require(finite_non_negative(item.unit_usd), "prices", "every network item needs a non-negative price");
    require(finite_non_negative(item.die_area_mm2) && finite_non_negative(item.process_nm), "embodied",
            "network chips need a non-negative area and node");
  }
  require(std::isfinite(p.cottier_network_share) && p.cottier_network_share >= 0 && p.cottier_network_share < 1,
          "prices.network_share", "must be in [0, 1)");
  require(finite_non_negative(p.facility_usd_per_mw), "prices.facility_per_mw", "must be a non-negative price");
  require(finite_non_negative(p.electricity_usd_per_kwh), "electricity_price", "must be a non-negative price");
  require(finite_non_negative(p.cloud_usd_per_device_hour), "prices.cloud_per_device_hour",
          "must be a non-negative price");

  const EmbodiedSettings& e = in.embodied;
  require(finite_non_negative(e.die_area_mm2), "embodied.die_area_mm2", "must be non-negative");
  require(finite_non_negative(e.process_nm), "embodied.process_nm", "must be non-negative");
  require(finite_non_negative(e.accelerator_memory_gb), "embodied.accelerator_memory", "must be non-negative");
  require(finite_non_negative(e.host_dram_gb), "embodied.host_dram", "must be non-negative");
  require(finite_non_negative(e.host_ssd_gb), "embodied.host_ssd", "must be non-negative");
  require(finite_non_negative(e.host_cpu_die_area_mm2), "embodied.host_cpu_die_area_mm2", "must be non-negative");
  require(finite_non_negative(e.host_cpu_process_nm), "embodied.host_cpu_process_nm", "must be non-negative");
  require(finite_non_negative(e.cpa_kg_per_cm2), "embodied.cpa_kg_per_cm2", "must be non-negative");
  require(finite_non_negative(e.fab_grid_g_per_kwh), "embodied.fab_grid", "must be non-negative");
  require(std::isfinite(e.yield) && e.yield > 0 && e.yield <= 1, "embodied.yield", "must be in (0, 1]");
  if (e.act_node) {
    require(finite_non_negative(e.act_node->epa_kwh_per_cm2) && finite_non_negative(e.act_node->gpa_g_per_cm2) &&
                finite_non_negative(e.act_node->mpa_g_per_cm2),
            "embodied.act", "EPA, GPA and MPA must be non-negative");
  }

  require(std::isfinite(in.provisioned_it_watts) && in.provisioned_it_watts >= 0, "provisioned_it_power",
          "must be non-negative");
  require(std::isfinite(in.lifetime_years) && in.lifetime_years > 0, "lifetime_years", "must be positive");
  require(finite_non_negative(in.decay_oom_per_year), "decay_oom_per_year", "must be non-negative");
  require(finite_non_negative(in.hardware_age_years), "hardware_age_years", "must be non-negative");
  require(std::isfinite(in.facility_lifetime_years) && in.facility_lifetime_years > 0, "facility_lifetime_years",
          "must be positive");
  require(std::isfinite(in.pue) && in.pue >= 1, "pue", "must be at least 1");
  require(finite_non_negative(in.grid_g_per_kwh), "grid_intensity", "must be non-negative");
  require(finite_non_negative(in.maintenance_fraction_per_year), "maintenance_per_year", "must be non-negative");
}

std::optional<double> default_accelerator_price_usd(std::string_view preset_name) noexcept {
  // ASSUMPTION: order-of-magnitude street prices often quoted in the press; not in the reference.
  static constexpr std::array<std::pair<std::string_view, double>, 8> kPrices{{
      {"v100-sxm2-32gb", 10'000},
      {"a100-sxm4-40gb", 10'000},
      {"a100-sxm4-80gb", 15'000},
      {"h100-sxm5-80gb", 25'000},
      {"h200-sxm-141gb", 30'000},
      {"b200-hgx", 35'000},
      {"b200-gb200", 40'000},
      {"mi300x", 15'000},
  }};
  for (const auto& [name, usd] : kPrices) {
    if (name == preset_name) return usd;
  }
  return std::nullopt;
}

TcoInputs inputs_for(const AcceleratorSpec& accelerator, const HardwareCounts& counts) {
  TcoInputs in;
  in.counts = counts;
  in.embodied.die_area_mm2 = accelerator.die_area_mm2;
  in.embodied.process_nm = accelerator.process_nm;
  // The presets read the vendors' "80 GB" as 80 GiB; LLMCarbon's kg/GB is per nominal GB.
  in.embodied.accelerator_memory_gb = static_cast<double>(accelerator.memory_bytes) / 1073741824.0;
  if (const auto price = default_accelerator_price_usd(accelerator.name)) in.prices.accelerator_usd = *price;
  return in;
}

}  // namespace rackscale::models::tco
