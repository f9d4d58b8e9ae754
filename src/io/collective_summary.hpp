#pragma once
// How a collective sweep is shown: for people and log parsers, nccl-tests' own log (io/nccl_tests_log.hpp)
// with rackscale's figures as comment lines around it; for scripts, one JSON object.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/collectives/collective_report.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

// "ring", "tree", ...; broadcast's and reduce's chain "ring (chain)", all_to_all's pairwise exchange
// "pairwise", gather's, scatter's and sendrecv's point-to-point sends "p2p".
[[nodiscard]] std::string_view algorithm_name(models::accelerator::CollectiveKind op,
                                              models::accelerator::Algorithm algorithm) noexcept;

// Every line starts with '#' but the table's rows: the scenario, cluster and network; nccl-tests' header,
// table and closing lines; then per size the algorithm that ran, its channels and pieces, NCCL's own
// cost model for it (us) and the engine's events, and the sweep's wall time.
[[nodiscard]] std::string collective_summary(const models::Scenario& scenario, const models::collectives::CollectiveReport& report);

// {"scenario", "op", "nccl_tests_binary", "devices", "algorithm" (requested), "topology", "fidelity",
//  "data_type", "redop" ("none" for ops that do not reduce), "root" (-1 for ops without one), "min_bytes",
//  "max_bytes", "step_factor", "step_bytes", "bus_bandwidth_factor", "average_bus_bandwidth_Bps",
//  "results": [{"size_bytes", "count", "time_ps", "algorithm_bandwidth_Bps", "bus_bandwidth_Bps",
//               "algorithm", "channels", "pieces", "nccl_model_time_s" (null where NCCL has no model),
//               "events", "wall_s", "engine" (io/engine_report.hpp; each size runs an engine of its own)}],
//  "setup_s", "run_s", "partition" (io/partition_summary.hpp)}
[[nodiscard]] nlohmann::ordered_json collective_json(const models::Scenario& scenario, const models::collectives::CollectiveReport& report);

}  // namespace rackscale::io
