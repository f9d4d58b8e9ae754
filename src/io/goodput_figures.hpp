#pragma once
// A training run's goodput estimate (models/workload/training_goodput.hpp; docs/goodput.md, "In rackscale
// run") under one name per figure, as `rackscale run --json` (`goodput`) and the results file
// (`/goodput`) both carry it, and as the summary shows it.
#include <string>

#include <nlohmann/json.hpp>

#include "io/figures.hpp"
#include "models/tco/tco_report.hpp"
#include "models/workload/training_goodput.hpp"

namespace rackscale::io {

// ideal_time_s, time_s, goodput, lost_s, down_s, checkpoint_s, interruptions, mtbf_s, interval_s,
// young_daly_interval_s, optimal_interval_s, checkpoint_bytes, storage_bandwidth_Bps, checkpoint_write_s,
// checkpoint_stall_s, restart_s, nodes.
[[nodiscard]] Figures goodput_figures(const models::workload::TrainingGoodput& goodput);
// name, per_day, interruptions, down_s: one row per interruption class.
[[nodiscard]] Table goodput_class_table(const models::workload::TrainingGoodput& goodput);
// The figures, `classes` (the table) and `effective_tco` (io/tco_figures.hpp's object).
[[nodiscard]] nlohmann::ordered_json goodput_json(const models::workload::TrainingGoodput& goodput);
// The summary's section: the expected run beside the ideal one (time, energy, cost, carbon), the
// interruptions and the checkpoint intervals.
[[nodiscard]] std::string goodput_text(const models::workload::TrainingGoodput& goodput,
                                       const models::tco::TcoReport& ideal);

}  // namespace rackscale::io
