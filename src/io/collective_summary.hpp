#pragma once
// How a collective sweep is shown: an nccl-tests style table for people, one JSON object for scripts.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/collectives/collective_report.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

[[nodiscard]] std::string_view collective_name(models::accelerator::CollectiveKind op) noexcept;
// "ring", "tree", ...; all_to_all's pairwise exchange is shown as "pairwise".
[[nodiscard]] std::string_view algorithm_name(models::accelerator::CollectiveKind op,
                                              models::accelerator::Algorithm algorithm) noexcept;

// Columns: size (B), time (us), algbw (GB/s), busbw (GB/s), algorithm, channels, pieces, NCCL model
// (us), events.
[[nodiscard]] std::string collective_summary(const models::Scenario& scenario, const models::collectives::CollectiveReport& report);

// {"scenario", "op", "devices", "algorithm" (requested), "topology", "fidelity",
//  "results": [{"bytes", "time_us", "algbw_GBps", "busbw_GBps", "algorithm", "channels", "pieces",
//               "nccl_model_us", "events", "wall_s", "engine" (io/engine_report.hpp; each size runs
//               an engine of its own)}], "setup_s", "run_s", "partition" (io/partition_summary.hpp)}
[[nodiscard]] nlohmann::ordered_json collective_json(const models::Scenario& scenario, const models::collectives::CollectiveReport& report);

}  // namespace rackscale::io
