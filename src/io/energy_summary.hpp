#pragma once
// The power, energy, cost and carbon part of a training run's summary (docs/tco.md, "In the summary"):
// a readable section for people and the matching JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "models/workload/training_report.hpp"

namespace rackscale::io {

// Tables: energy per iteration by class, then cost and carbon per iteration, per million tokens and for
// the whole run, the whole run's breakdown and the estimate's notes. Ends with a newline.
[[nodiscard]] std::string energy_summary(const models::workload::TrainingReport& report);

// Keys: simulated_time_ps, energy_j {accelerators, hosts, nics, switches, total} (exact totals over the
// simulated time, in joules), energy_limbs (the exact limbs: millijoules and femtojoule remainder of accelerators, hosts, NICs,
// switches),
// mean_it_power_w, energy_per_iteration_j {...}, tco {...} (null when there is none).
[[nodiscard]] nlohmann::ordered_json energy_json(const models::workload::TrainingReport& report);

}  // namespace rackscale::io
