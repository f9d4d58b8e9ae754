#pragma once
// How a training run is shown: a readable summary for people and one JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::io {

[[nodiscard]] std::string training_summary(const models::Scenario& scenario,
                                           const models::workload::TrainingReport& report);

// Keys, in this order: scenario, devices, layout, iterations, iteration_time_ps, iteration_times_ps,
// tokens_per_iteration, tokens_per_second, model_flops, hardware_flops, mfu, hfu, tflops_per_device,
// parameters, active_parameters, breakdown_ps {...}, breakdown_by_stage_ps [...], collectives [...],
// memory_bytes [...], memory_capacity_bytes, energy {...} (io/energy_summary.hpp), setup_s, partition
// {...} (io/partition_summary.hpp), engine {...} (io/engine_report.hpp); docs/cli.md lists them.
[[nodiscard]] nlohmann::ordered_json training_json(const models::Scenario& scenario,
                                                   const models::workload::TrainingReport& report);

}  // namespace rackscale::io
