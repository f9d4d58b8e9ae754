#pragma once
// Carbon intensity of electricity (gCO2e per kWh), by location or by source. Operational carbon is
// facility energy x this figure. Presets: data/reference/energy_carbon_cost.md (ACT's location and
// source tables, Gupta et al. ISCA 2022; the US average of Patterson et al. 2021).
#include <optional>
#include <span>
#include <string_view>

namespace rackscale::models::tco {

struct GridPreset {
  std::string_view name;
  double g_per_kwh;
  std::string_view source;
};

// All presets, in a fixed order (for listings and did-you-mean).
[[nodiscard]] std::span<const GridPreset> grid_presets() noexcept;

// gCO2e/kWh of a preset by exact name ("world", "usa", "coal", ...); nullopt for an unknown name.
[[nodiscard]] std::optional<double> grid_intensity_g_per_kwh(std::string_view name) noexcept;

// The default: the USA average of ACT's location table.
inline constexpr std::string_view kDefaultGrid = "usa";

}  // namespace rackscale::models::tco
