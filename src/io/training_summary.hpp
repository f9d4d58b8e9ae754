#pragma once
// How a training run is shown: a readable summary for people and one JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::io {

[[nodiscard]] std::string training_summary(const models::Scenario& scenario,
                                           const models::workload::TrainingReport& report);

// Keys: scenario, the /training figures (io/training_figures.hpp), iteration_times_ps, stages [...],
// collectives [...], energy {...}, tco {...} (io/tco_figures.hpp; null without one), goodput {...}
// (io/goodput_figures.hpp; null without a tco or with goodput.enabled false), setup_s, partition
// {...} (io/partition_summary.hpp), engine {...} (io/engine_report.hpp); docs/cli.md lists them.
[[nodiscard]] nlohmann::ordered_json training_json(const models::Scenario& scenario,
                                                   const models::workload::TrainingReport& report);

}  // namespace rackscale::io
