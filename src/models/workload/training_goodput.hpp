#pragma once
// A training run's goodput estimate (docs/goodput.md, "In rackscale run"): the closed form of the
// run-level model (models/goodput/expected_run.hpp) applied to the simulated iteration time and the
// whole run's iterations, and the run's cost and carbon over the expected effective time beside the
// ideal one.
#include <cstdint>
#include <optional>

#include "models/goodput/expected_run.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::models::workload {

struct TrainingGoodput {
  std::uint64_t nodes = 0;             // of the job
  std::uint64_t checkpoint_bytes = 0;
  double storage_Bps = 0;
  double write_s = 0, stall_s = 0, restart_s = 0;
  double mtbf_s = 0;                   // of the whole job
  double configured_interval_s = 0;    // goodput.checkpoint.interval (Young/Daly's when auto), whole iterations
  double young_daly_s = 0;
  double optimal_interval_s = 0;       // the closed form's
  goodput::ExpectedRun run;            // at the configured interval
  std::optional<tco::TcoReport> effective_tco;  // the ideal run's TCO (TrainingReport::tco) over run.time_s
};

}  // namespace rackscale::models::workload
