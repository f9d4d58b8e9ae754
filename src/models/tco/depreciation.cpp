#include "models/tco/depreciation.hpp"

#include <algorithm>
#include <cmath>

namespace rackscale::models::tco {

double remaining_value(Depreciation kind, double age_years, double lifetime_years,
                       double decay_oom_per_year) noexcept {
  switch (kind) {
    case Depreciation::straight_line:
      return std::clamp(1.0 - age_years / lifetime_years, 0.0, 1.0);
    case Depreciation::exponential:
      return std::pow(10.0, -decay_oom_per_year * age_years);
  }
  return 0.0;
}

double value_lost(Depreciation kind, double start_age_years, double duration_years, double lifetime_years,
                  double decay_oom_per_year) noexcept {
  return remaining_value(kind, start_age_years, lifetime_years, decay_oom_per_year) -
         remaining_value(kind, start_age_years + duration_years, lifetime_years, decay_oom_per_year);
}

}  // namespace rackscale::models::tco
