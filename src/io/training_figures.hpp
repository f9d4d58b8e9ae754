#pragma once
// The figures of a training run under their one name each, as both `rackscale run --json` and the
// results file carry them (docs/output.md): the /training attributes (the JSON object's top level),
// the /stages and /collectives tables, and the /energy attributes.
#include <array>

#include "io/figures.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::io {

// The eight components of a device's time: the name (with its unit), where a device's breakdown and a
// mean breakdown keep it, and what it means.
struct TimeComponent {
  const char* name;
  pdes::SimTime models::accelerator::TimeBreakdown::*device;
  double models::workload::MeanBreakdown::*mean;
  const char* meaning;
};
extern const std::array<TimeComponent, 8> kTimeComponents;

// layout, devices, the group sizes, iterations, iteration_time_ps, run_time_ps, tokens_per_iteration,
// tokens_per_s, mfu, hfu, mfu_formula, stack, hardware_flops_per_device_per_s, model_flops_per_iteration,
// hardware_flops_per_iteration, parameters, active_parameters, memory_capacity_bytes, memory_warning,
// mean_forward_ps ... mean_idle_ps.
[[nodiscard]] Figures training_figures(const models::workload::TrainingReport& report);
// One row per pipeline stage: devices, the eight components (mean per device per iteration), memory.
[[nodiscard]] Table stage_table(const models::workload::TrainingReport& report);
// One row per (group, collective) that ran, over all devices and iterations.
[[nodiscard]] Table collective_table(const models::workload::TrainingReport& report);
// IT energy by component class over the whole simulated time and per iteration.
[[nodiscard]] Figures energy_figures(const models::workload::TrainingReport& report);

}  // namespace rackscale::io
