#pragma once
// A training run's variability report (models/workload/variability_report.hpp) as figures (the `--json`
// object's "variability" member and the results file's /variability group) and as the summary's text.
#include <string>

#include "io/figures.hpp"
#include "models/workload/variability_report.hpp"
#include "pdes/time.hpp"

namespace rackscale::io {

[[nodiscard]] Figures variability_figures(const models::workload::VariabilityReport& report);
// The summary's lines: the slowdown, the slowest and the last device, the busiest and the degraded links.
[[nodiscard]] std::string variability_summary(const models::workload::VariabilityReport& report,
                                              pdes::SimTime iteration_time);

}  // namespace rackscale::io
