#pragma once
// How hardware loses value, and so how much of its price a run is charged (amortized capex):
//   straight_line: value(t) = max(0, 1 - t / lifetime)
//   exponential:   value(t) = 10^(-rate x t), rate = 0.14 orders of magnitude per year (Cottier et al.
//                  2024, arXiv:2405.21015: hardware price-performance improves ~10x in 7 years)
// with t the hardware's age in years. A run from age t0 lasting d years is charged
// price x (value(t0) - value(t0 + d)).
namespace rackscale::models::tco {

enum class Depreciation { straight_line, exponential };

inline constexpr double kCottierDecayOomPerYear = 0.14;

// The fraction of the purchase price the hardware is still worth at `age_years`.
[[nodiscard]] double remaining_value(Depreciation kind, double age_years, double lifetime_years,
                                     double decay_oom_per_year = kCottierDecayOomPerYear) noexcept;

// The fraction of the purchase price lost over [start_age, start_age + duration] (years).
[[nodiscard]] double value_lost(Depreciation kind, double start_age_years, double duration_years,
                                double lifetime_years, double decay_oom_per_year = kCottierDecayOomPerYear) noexcept;

}  // namespace rackscale::models::tco
