#include "models/tco/grid_intensity.hpp"

#include <array>

namespace rackscale::models::tco {
namespace {

constexpr std::string_view kActLocation = "ACT (Gupta et al., ISCA 2022) location table";
constexpr std::string_view kActSource = "ACT (Gupta et al., ISCA 2022) by-source table";

constexpr std::array kPresets{
    GridPreset{"world", 301, kActLocation},
    GridPreset{"usa", 380, kActLocation},
    GridPreset{"europe", 295, kActLocation},
    GridPreset{"taiwan", 583, kActLocation},
    GridPreset{"india", 725, kActLocation},
    GridPreset{"iceland", 28, kActLocation},
    GridPreset{"coal", 820, kActSource},
    GridPreset{"gas", 490, kActSource},
    GridPreset{"solar", 41, kActSource},
    GridPreset{"hydro", 24, kActSource},
    GridPreset{"nuclear", 12, kActSource},
    GridPreset{"wind", 11, kActSource},
    // The figure Patterson et al. 2021 used for GPT-3 and Meena (US average, 0.429 kg/kWh).
    GridPreset{"usa_patterson2021", 429, "Patterson et al. 2021 (arXiv:2104.10350), US grid average"},
};

}  // namespace

std::span<const GridPreset> grid_presets() noexcept { return kPresets; }

std::optional<double> grid_intensity_g_per_kwh(std::string_view name) noexcept {
  for (const auto& preset : kPresets) {
    if (preset.name == name) return preset.g_per_kwh;
  }
  return std::nullopt;
}

}  // namespace rackscale::models::tco
