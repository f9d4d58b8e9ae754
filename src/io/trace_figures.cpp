#include "io/trace_figures.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace rackscale::io {

namespace wl = models::workload;

const char* control_dependencies_name(wl::ControlDependencies c) {
  return c == wl::ControlDependencies::honor ? "honor" : "ignore";
}
const char* cpu_ops_name(wl::CpuOps c) { return c == wl::CpuOps::skip ? "skip" : "serialize"; }

Figures trace_figures(const models::Scenario& scenario, const wl::TraceReport& r) {
  const wl::TraceWorkloadSpec& spec = scenario.workload.trace;
  return {{"files", r.files},
          {"ranks", std::uint64_t{r.ranks}},
          {"control_dependencies", std::string(control_dependencies_name(spec.control_dependencies))},
          {"cpu_ops", std::string(cpu_ops_name(spec.cpu_ops))},
          {"ops", r.ops},
          {"makespan_ps", r.makespan}};
}

Figures critical_path_figures(const wl::TraceReport& r) {
  return {{"rank", std::uint64_t{r.critical_rank}},
          {"length_ps", r.critical_path},
          {"ops", r.critical_ops},
          {"first_node", r.critical_first},
          {"last_node", r.critical_last}};
}

Table trace_rank_table(const wl::TraceReport& r) {
  const auto column = [&r](std::string name, std::string units, std::string description,
                           const std::function<std::uint64_t(const wl::TraceRankFigures&)>& of) {
    std::vector<std::uint64_t> values;
    values.reserve(r.per_rank.size());
    for (const wl::TraceRankFigures& f : r.per_rank) values.push_back(of(f));
    return Column{std::move(name), std::move(units), std::move(description), std::move(values)};
  };
  return {
      column("rank", "", "the traced rank", [](const auto& f) { return f.rank; }),
      column("device", "", "the device that replayed it (row of /devices)", [](const auto& f) { return f.device; }),
      column("ops", "ops", "its trace's ops", [](const auto& f) { return f.ops; }),
      column("compute_ps", "ps", "time its compute units were busy", [](const auto& f) { return f.stats.compute; }),
      column("host_ps", "ps", "time its host thread was busy (cpu_ops: serialize)",
             [](const auto& f) { return f.stats.host; }),
      column("memory_ps", "ps", "time its copy engine was busy", [](const auto& f) { return f.stats.memory; }),
      column("communication_ps", "ps", "time it had a collective, send or receive in flight",
             [](const auto& f) { return f.stats.communication; }),
      column("collectives", "calls", "collectives it called", [](const auto& f) { return f.stats.collectives; }),
      column("sends", "messages", "point-to-point sends", [](const auto& f) { return f.stats.sends; }),
      column("receives", "messages", "point-to-point receives", [](const auto& f) { return f.stats.receives; }),
      column("bytes_sent", "bytes", "point-to-point payload sent", [](const auto& f) { return f.stats.bytes_sent; }),
      column("end_ps", "ps", "when its last op finished", [](const auto& f) { return f.stats.end; }),
      column("critical_path_ps", "ps", "its longest dependency chain, each op weighted by its replayed time",
             [](const auto& f) { return f.stats.critical_path; }),
  };
}

}  // namespace rackscale::io
