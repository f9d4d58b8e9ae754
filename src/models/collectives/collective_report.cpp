#include "models/collectives/collective_report.hpp"

namespace rackscale::models::collectives {

double average_bus_bandwidth(const CollectiveReport& report) noexcept {
  if (report.results.empty()) return 0;
  // nccl-tests averages over every busbw it printed, out-of-place and in-place; with the two equal, that
  // is the mean over sizes.
  double sum = 0;
  for (const CollectivePoint& p : report.results) sum += p.busbw;
  return sum / static_cast<double>(report.results.size());
}

}  // namespace rackscale::models::collectives
