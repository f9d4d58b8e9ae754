#include "models/tco/embodied_carbon.hpp"

#include <array>
#include <cstddef>
#include <limits>

namespace rackscale::models::tco {
namespace {

// Linear interpolation in a table sorted by node size, descending. nullopt outside; `interpolated`
// unless the node is (within a hair of) a table node.
struct Row {
  double nm;
  std::array<double, 3> values;
};

template <std::size_t N>
std::optional<std::pair<std::array<double, 3>, bool>> lookup(const std::array<Row, N>& table, double nm) {
  constexpr double kSame = 1e-9;
  for (std::size_t i = 0; i < N; ++i) {
    if (nm > table[i].nm - kSame && nm < table[i].nm + kSame) return std::pair{table[i].values, false};
  }
  for (std::size_t i = 0; i + 1 < N; ++i) {
    const Row& big = table[i];
    const Row& small = table[i + 1];
    if (nm < big.nm && nm > small.nm) {
      const double w = (big.nm - nm) / (big.nm - small.nm);  // 0 at the bigger node, 1 at the smaller
      std::array<double, 3> v{};
      for (std::size_t k = 0; k < 3; ++k) v[k] = big.values[k] + w * (small.values[k] - big.values[k]);
      return std::pair{v, true};
    }
  }
  return std::nullopt;
}

// LLMCarbon CPA, kgCO2e/cm2 (only the first value is used).
constexpr std::array<Row, 4> kLlmCarbon{{
    {16, {1.0, 0, 0}},
    {12, {1.2, 0, 0}},
    {7, {1.6, 0, 0}},
    {4, {1.8, 0, 0}},
}};

// ACT: EPA kWh/cm2, GPA g/cm2 at 95% abatement, GPA g/cm2 at 99% abatement.
constexpr std::array<Row, 3> kAct{{
    {7, {2.15, 350, 200}},
    {5, {2.75, 430, 225}},
    {3, {3.25, 470, 275}},
}};

}  // namespace

std::optional<CarbonPerArea> llmcarbon_cpa(double process_nm) noexcept {
  const auto hit = lookup(kLlmCarbon, process_nm);
  if (!hit) return std::nullopt;
  return CarbonPerArea{hit->first[0], hit->second};
}

double llmcarbon_die_kg(double die_area_mm2, double cpa_kg_per_cm2) noexcept {
  return die_area_mm2 / 100.0 * cpa_kg_per_cm2;
}

std::optional<ActNodeFigures> act_node_figures(double process_nm, GasAbatement abatement) noexcept {
  const auto hit = lookup(kAct, process_nm);
  if (!hit) return std::nullopt;
  const auto& v = hit->first;
  return ActNodeFigures{v[0], abatement == GasAbatement::percent95 ? v[1] : v[2], kActMpaGPerCm2, hit->second};
}

double act_die_kg(double die_area_mm2, const ActNodeFigures& node, double fab_g_per_kwh, double yield) noexcept {
  const double grams_per_cm2 = fab_g_per_kwh * node.epa_kwh_per_cm2 + node.gpa_g_per_cm2 + node.mpa_g_per_cm2;
  return die_area_mm2 / 100.0 * grams_per_cm2 / yield / 1000.0;
}

ChipCarbon chip_embodied_kg(double die_area_mm2, double process_nm, double fab_g_per_kwh, GasAbatement abatement,
                            double yield) noexcept {
  if (!(die_area_mm2 > 0)) return {};
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ChipCarbon c{kNaN, kNaN};
  if (const auto cpa = llmcarbon_cpa(process_nm)) c.llmcarbon_kg = llmcarbon_die_kg(die_area_mm2, cpa->kg_per_cm2);
  if (const auto node = act_node_figures(process_nm, abatement))
    c.act_kg = act_die_kg(die_area_mm2, *node, fab_g_per_kwh, yield);
  return c;
}

double memory_storage_kg(double dram_gb, double ssd_gb) noexcept {
  return dram_gb * kLlmCarbonDramKgPerGb + ssd_gb * kLlmCarbonSsdKgPerGb;
}

double embodied_share(double run_years, double lifetime_years) noexcept { return run_years / lifetime_years; }

}  // namespace rackscale::models::tco
