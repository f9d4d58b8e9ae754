#pragma once
// The figures of a trace replay under their one name each, as both `rackscale run --json` and the results
// file (/trace) carry them (docs/output.md, docs/traces.md).
#include "io/figures.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_report.hpp"

namespace rackscale::io {

// files, ranks, control_dependencies, cpu_ops, ops, makespan_ps.
[[nodiscard]] Figures trace_figures(const models::Scenario& scenario, const models::workload::TraceReport& report);
// The longest critical path: rank, length_ps, ops, first_node, last_node.
[[nodiscard]] Figures critical_path_figures(const models::workload::TraceReport& report);
// One row per traced rank: rank, device, ops, compute_ps, host_ps, memory_ps, communication_ps,
// collectives, sends, receives, bytes_sent, end_ps, critical_path_ps.
[[nodiscard]] Table trace_rank_table(const models::workload::TraceReport& report);

// "honor" / "ignore", "skip" / "serialize": the config's words.
[[nodiscard]] const char* control_dependencies_name(models::workload::ControlDependencies c);
[[nodiscard]] const char* cpu_ops_name(models::workload::CpuOps c);

}  // namespace rackscale::io
