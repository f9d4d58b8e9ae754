#include "io/trace_replay_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/number_format.hpp"
#include "io/partition_summary.hpp"
#include "io/statistics_figures.hpp"
#include "io/trace_figures.hpp"
#include "models/network/fidelity.hpp"

namespace rackscale::io {

namespace wl = models::workload;

namespace {
constexpr std::size_t kRowsShown = 16;

}  // namespace

std::string trace_replay_summary(const models::Scenario& s, const wl::TraceReport& r) {
  const wl::TraceWorkloadSpec& spec = s.workload.trace;
  std::string out;
  out += fmt::format("rackscale: trace replay of {} rank(s) from {}; {}: {}\n", r.ranks, r.files, s.name, s.description);
  out += fmt::format("cluster: {} devices, {} switches; {}; {} network\n", with_commas(r.devices),
                     with_commas(r.switches), r.topology, models::network::fidelity_name(s.network.fidelity));
  out += fmt::format("traces: {} ops; control dependencies {}, CPU ops {}\n", with_commas(r.ops),
                     control_dependencies_name(spec.control_dependencies), cpu_ops_name(spec.cpu_ops));
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
  nlohmann::ordered_json j;
  j["scenario"] = s.name;
  j["workload"] = "trace";
  j["devices"] = r.devices;
  j["topology"] = r.topology;
  j["fidelity"] = std::string(models::network::fidelity_name(s.network.fidelity));
  add_figures(j, trace_figures(s, r));
  j["critical_path"] = figures_json(critical_path_figures(r));
  j["per_rank"] = table_json(trace_rank_table(r));
  j["statistics"] = statistics_json(r.statistics);
  j["setup_s"] = r.setup_seconds;
  j["run_s"] = r.run_seconds;
  j["engine"] = engine_json(r.engine);
  j["partition"] = partition_json(r.partition);
  return j;
}

}  // namespace rackscale::io
