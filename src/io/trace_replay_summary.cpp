#include "io/trace_replay_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/number_format.hpp"
#include "io/partition_summary.hpp"
#include "models/network/fidelity.hpp"

namespace rackscale::io {

namespace wl = models::workload;

namespace {
constexpr std::size_t kRowsShown = 16;

const char* control_name(wl::ControlDependencies c) { return c == wl::ControlDependencies::honor ? "honor" : "ignore"; }
const char* cpu_ops_name(wl::CpuOps c) { return c == wl::CpuOps::skip ? "skip" : "serialize"; }
}  // namespace

std::string trace_replay_summary(const models::Scenario& s, const wl::TraceReport& r) {
  const wl::TraceWorkloadSpec& spec = s.workload.trace;
  std::string out;
  out += fmt::format("rackscale: trace replay of {} rank(s) from {}; {}: {}\n", r.ranks, r.files, s.name, s.description);
  out += fmt::format("cluster: {} devices, {} switches; {}; {} network\n", with_commas(r.cluster_devices),
                     with_commas(r.switches), r.topology, models::network::fidelity_name(s.network.fidelity));
  out += fmt::format("traces: {} ops; control dependencies {}, CPU ops {}\n", with_commas(r.ops),
                     control_name(spec.control_dependencies), cpu_ops_name(spec.cpu_ops));
  out += fmt::format("makespan: {}\n", format_picoseconds(r.makespan));
  out += fmt::format("critical path: {} on rank {}, {} ops from node {} to node {}\n", format_picoseconds(r.critical_path),
                     r.critical_rank, with_commas(r.critical_ops), r.critical_first, r.critical_last);
  out += fmt::format("{:>6} {:>7} {:>9} {:>12} {:>12} {:>12} {:>14} {:>12} {:>14}\n", "rank", "device", "ops", "compute",
                     "host", "memory", "communication", "end", "critical path");
  for (std::size_t i = 0; i < std::min(kRowsShown, r.per_rank.size()); ++i) {
    const wl::TraceRankFigures& f = r.per_rank[i];
    out += fmt::format("{:>6} {:>7} {:>9} {:>12} {:>12} {:>12} {:>14} {:>12} {:>14}\n", f.rank, f.device, with_commas(f.ops),
                       format_picoseconds(f.stats.compute), format_picoseconds(f.stats.host),
                       format_picoseconds(f.stats.memory), format_picoseconds(f.stats.communication),
                       format_picoseconds(f.stats.end), format_picoseconds(f.stats.critical_path));
  }
  if (r.per_rank.size() > kRowsShown) out += fmt::format("  ... {} more ranks (--json has them all)\n", r.per_rank.size() - kRowsShown);
  out += engine_line(r.engine, r.setup_seconds) + '\n';
  return out;
}

nlohmann::ordered_json trace_replay_json(const models::Scenario& s, const wl::TraceReport& r) {
  const wl::TraceWorkloadSpec& spec = s.workload.trace;
  nlohmann::ordered_json j;
  j["scenario"] = s.name;
  j["workload"] = "trace";
  j["files"] = r.files;
  j["ranks"] = r.ranks;
  j["devices"] = r.cluster_devices;
  j["topology"] = r.topology;
  j["fidelity"] = std::string(models::network::fidelity_name(s.network.fidelity));
  j["control_dependencies"] = control_name(spec.control_dependencies);
  j["cpu_ops"] = cpu_ops_name(spec.cpu_ops);
  j["ops"] = r.ops;
  j["makespan_ps"] = r.makespan;
  j["critical_path"] = {{"rank", r.critical_rank},
                        {"length_ps", r.critical_path},
                        {"ops", r.critical_ops},
                        {"first_node", r.critical_first},
                        {"last_node", r.critical_last}};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const wl::TraceRankFigures& f : r.per_rank)
    rows.push_back({{"rank", f.rank},
                    {"device", f.device},
                    {"ops", f.ops},
                    {"compute_ps", f.stats.compute},
                    {"host_ps", f.stats.host},
                    {"memory_ps", f.stats.memory},
                    {"communication_ps", f.stats.communication},
                    {"collectives", f.stats.collectives},
                    {"sends", f.stats.sends},
                    {"receives", f.stats.receives},
                    {"bytes_sent", f.stats.bytes_sent},
                    {"end_ps", f.stats.end},
                    {"critical_path_ps", f.stats.critical_path}});
  j["per_rank"] = std::move(rows);
  j["setup_s"] = r.setup_seconds;
  j["run_s"] = r.run_seconds;
  j["engine"] = engine_json(r.engine);
  j["partition"] = partition_json(r.partition);
  return j;
}

}  // namespace rackscale::io
