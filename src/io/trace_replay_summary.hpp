#pragma once
// How a trace replay is shown (docs/traces.md): a summary for people, one JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario.hpp"
#include "models/workload/trace_report.hpp"

namespace rackscale::io {

// The scenario, cluster and traces; the makespan and critical path; per traced rank (the first 16, then
// a count) its device, ops, compute, host, memory and communication time and end; the engine's line.
[[nodiscard]] std::string trace_replay_summary(const models::Scenario& scenario, const models::workload::TraceReport& report);

// {"scenario", "workload": "trace", "devices", "topology", "fidelity", the trace figures (io/trace_figures.hpp:
//  "files", "ranks", "control_dependencies", "cpu_ops", "ops", "makespan_ps"), "critical_path": {"rank",
//  "length_ps", "ops", "first_node", "last_node"}, "per_rank": [{"rank", "device", "ops", "compute_ps", "host_ps",
//  "memory_ps", "communication_ps", "collectives", "sends", "receives", "bytes_sent", "end_ps",
//  "critical_path_ps"}], "statistics" (io/statistics_figures.hpp), "setup_s", "run_s", "engine"
//  (io/engine_report.hpp), "partition" (io/partition_summary.hpp)}
[[nodiscard]] nlohmann::ordered_json trace_replay_json(const models::Scenario& scenario,
                                                      const models::workload::TraceReport& report);

}  // namespace rackscale::io
