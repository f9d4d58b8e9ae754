#pragma once
// The power, energy, cost and carbon part of a training run's summary (docs/tco.md, "In the summary").
// The same figures for scripts are io/training_figures.hpp's energy_figures and io/tco_figures.hpp.
#include <string>

#include "models/workload/training_report.hpp"

namespace rackscale::io {

// Tables: energy per iteration by class, then cost and carbon per iteration, per million tokens and for
// the whole run, the whole run's breakdown and the estimate's notes. Ends with a newline.
[[nodiscard]] std::string energy_summary(const models::workload::TrainingReport& report);

}  // namespace rackscale::io
