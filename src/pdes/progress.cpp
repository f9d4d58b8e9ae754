#include "pdes/progress.hpp"

#include <algorithm>

namespace rackscale::pdes {

double ProgressFigures::fraction_done() const noexcept {
  if (work.total > 0)
    return std::min(1.0, static_cast<double>(work.done) / static_cast<double>(work.total));
  if (end != kNever && end > 0) return std::min(1.0, static_cast<double>(simulated) / static_cast<double>(end));
  return -1.0;
}

}  // namespace rackscale::pdes
