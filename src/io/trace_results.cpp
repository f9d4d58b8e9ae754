#include "io/trace_results.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "io/network_results.hpp"
#include "io/results_columns.hpp"
#include "io/statistics_figures.hpp"
#include "io/trace_figures.hpp"

namespace rackscale::io {

namespace wl = models::workload;
using hdf5::Group;

namespace {

constexpr std::uint32_t kNoRank = std::numeric_limits<std::uint32_t>::max();

void write_devices(Group& root, const NetworkRows& net, const models::Scenario& scenario) {
  const models::network::Topology& t = net.topology();
  const wl::TraceWorkloadSpec& spec = scenario.workload.trace;
  std::vector<std::uint32_t> traced(t.device_count(), kNoRank);
  for (std::uint32_t rank = 0; rank < spec.ranks; ++rank) traced[spec.device_of(rank)] = rank;
  const OwnedRows rows = net.devices();
  Group g = root.create_group("devices");
  g.set_attribute("description", "every device (accelerator), indexed by device index");
  write_column(g, "node", rows, rows.make([&](std::uint64_t d) { return t.devices[d]; }), "",
               "the device's node id (row of /nodes)");
  write_column(g, "traced_rank", rows, rows.make([&](std::uint64_t d) { return traced[d]; }), "",
               "the traced rank the device replayed (row of /trace/per_rank); 4294967295: none, it stayed idle");
}

void write_trace(Group& root, const models::Scenario& scenario, const wl::TraceReport& report) {
  Group g = root.create_group("trace");
  g.set_attribute("description", "the trace replay's figures over every traced rank");
  write_figures(g, trace_figures(scenario, report));
  Group critical = g.create_group("critical_path");
  critical.set_attribute("description", "the longest critical path of any traced rank (the first such rank)");
  write_figures(critical, critical_path_figures(report));
  Group per_rank = g.create_group("per_rank");
  per_rank.set_attribute("description", "every traced rank, indexed by traced rank");
  write_table(per_rank, trace_rank_table(report));
}

}  // namespace

void write_trace_results(hdf5::File& file, const models::Scenario& scenario, const sim::FinishedRun& run,
                         const wl::TraceReport& report, const ProgramInfo& program) {
  const NetworkRows net(file.comm(), run.topology, run.rack_rank);
  write_root_attributes(file, scenario, program,
                        engine_run_metadata(file.comm(), "trace", report.topology, report.partition.method,
                                            report.setup_seconds, run.engine, run.engine_stats));
  write_cluster_groups(file, net, run.counters, report.makespan, report.partition, run.engine, run.engine_stats);
  write_devices(file, net, scenario);
  write_trace(file, scenario, report);
  write_statistics(file, report.statistics);
}

}  // namespace rackscale::io
