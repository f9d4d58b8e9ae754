#pragma once
// Embodied (manufacturing) carbon of chips, memory and storage, two published ways, and the share of
// it charged to a run. Figures: data/reference/energy_carbon_cost.md.
//
// LLMCarbon (Faiz et al., ICLR 2024):  die  = area x CPA(process node)
//                                       DRAM = 0.4 kgCO2e/GB, SSD = 0.024 kgCO2e/GB
// ACT (Gupta et al., ISCA 2022):        die  = area x (CI_fab x EPA + GPA + MPA) / yield
//   EPA: fab energy per area (kWh/cm2), CI_fab: the fab's grid (g/kWh), GPA: fab gases per area
//   (g/cm2, after 95% or 99% abatement), MPA: materials per area (g/cm2), yield 0.875.
// Charged to a run: (run time / lifetime) x embodied (both papers).
//
// Node tables hold only the reference's nodes. Between two table nodes a figure is interpolated
// linearly in nm (an ASSUMPTION, flagged in the result); outside the table there is no figure
// (nullopt): the caller supplies one or reports the method as unavailable.
#include <optional>

namespace rackscale::models::tco {

inline constexpr double kLlmCarbonDramKgPerGb = 0.4;
inline constexpr double kLlmCarbonSsdKgPerGb = 0.024;
inline constexpr double kActDefaultYield = 0.875;
inline constexpr double kActMpaGPerCm2 = 500.0;

struct CarbonPerArea {
  double kg_per_cm2 = 0;
  bool interpolated = false;  // the node is between table nodes
};

// LLMCarbon's CPA: 16 nm 1.0, 12 nm 1.2, 7 nm 1.6, 4 nm 1.8 kgCO2e/cm2; nullopt outside [4, 16] nm.
[[nodiscard]] std::optional<CarbonPerArea> llmcarbon_cpa(double process_nm) noexcept;

// area (mm2) x CPA, kg.
[[nodiscard]] double llmcarbon_die_kg(double die_area_mm2, double cpa_kg_per_cm2) noexcept;

enum class GasAbatement { percent95, percent99 };

struct ActNodeFigures {
  double epa_kwh_per_cm2 = 0;
  double gpa_g_per_cm2 = 0;
  double mpa_g_per_cm2 = kActMpaGPerCm2;
  bool interpolated = false;
};

// ACT's per-node figures: EPA 7 nm 2.15, 5 nm 2.75, 3 nm 3.25 kWh/cm2; GPA (95% / 99% abatement)
// 7 nm 350/200, 5 nm 430/225, 3 nm 470/275 g/cm2; MPA 500 g/cm2. nullopt outside [3, 7] nm.
[[nodiscard]] std::optional<ActNodeFigures> act_node_figures(double process_nm, GasAbatement abatement) noexcept;

// area (mm2) x (fab_g_per_kwh x EPA + GPA + MPA) / yield, kg.
[[nodiscard]] double act_die_kg(double die_area_mm2, const ActNodeFigures& node, double fab_g_per_kwh,
                                double yield) noexcept;

// A chip of `die_area_mm2` at `process_nm` by both methods, from their node tables: NaN where the node
// is outside a method's table, 0 for no area. For network chips (NICs, switch ASICs, transceivers).
struct ChipCarbon {
  double llmcarbon_kg = 0;
  double act_kg = 0;
};
[[nodiscard]] ChipCarbon chip_embodied_kg(double die_area_mm2, double process_nm, double fab_g_per_kwh,
                                          GasAbatement abatement, double yield) noexcept;

// DRAM (including HBM) and SSD by LLMCarbon's per-GB figures, kg.
[[nodiscard]] double memory_storage_kg(double dram_gb, double ssd_gb) noexcept;

// The share of embodied carbon charged to a run of `run_years`: run / lifetime (not capped: a run longer
// than the lifetime wears out more than one set of hardware).
[[nodiscard]] double embodied_share(double run_years, double lifetime_years) noexcept;

}  // namespace rackscale::models::tco
