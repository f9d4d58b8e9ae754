#include "io/collective_results.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "io/collective_summary.hpp"
#include "io/nccl_tests_log.hpp"
#include "io/results_columns.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::io {

namespace coll = models::collectives;

namespace {
// A sweep runs one engine per size: the root attributes add their events and windows up, and its
// latest event time is the longest size's.
RunMetadata sweep_metadata(const coll::CollectiveReport& r) {
  RunMetadata run;
  run.workload = "collective";
  run.topology = r.topology;
  run.partition_method = r.partition.method;
  run.setup_s = r.setup_seconds;
  run.wall_s = r.run_seconds;
  run.lookahead_ps = r.partition.lookahead;
  for (const auto& p : r.results) {
    run.events += p.events;
    run.windows += p.windows;
    run.final_time_ps = std::max(run.final_time_ps, p.final_time);
  }
  return run;
}
}  // namespace

void write_collective_results(hdf5::File& file, const models::Scenario& scenario, const coll::CollectiveReport& r,
                              const ProgramInfo& program) {
  write_root_attributes(file, scenario, program, sweep_metadata(r));
  const auto& bench = scenario.workload.collective;

  hdf5::Group g = file.create_group("collective");
  g.set_attribute("description", "an nccl-tests style sweep: one call of the collective per message size, over the "
                                 "first `devices` devices, timed from the first member's start to the last one's end");
  g.set_attribute("op", models::workload::collective_name(r.op));
  g.set_attribute("nccl_tests_binary", nccl_tests_binary(r.op));
  g.set_attribute("devices", std::uint64_t{r.devices});
  g.set_attribute("algorithm_requested", algorithm_name(r.op, r.requested));
  g.set_attribute("data_type", coll::data_type_name(bench.data_type));
  g.set_attribute("redop", nccl_tests_redop(bench));
  g.set_attribute("root", static_cast<std::int64_t>(nccl_tests_root(bench)));
  g.set_attribute("min_bytes", bench.min_bytes);
  g.set_attribute("max_bytes", bench.max_bytes);
  g.set_attribute("step_factor", bench.step_factor);
  g.set_attribute("step_bytes", bench.step_bytes);
  g.set_attribute("bus_bandwidth_factor", coll::bus_bandwidth_factor(r.op, r.devices));
  g.set_attribute("average_bus_bandwidth_Bps", coll::average_bus_bandwidth(r));

  std::vector<std::uint64_t> size, count, time;
  std::vector<double> algbw, busbw, nccl;
  std::vector<std::string> algorithm;
  std::vector<std::uint32_t> channels, pieces;
  for (const auto& p : r.results) {
    size.push_back(p.bytes);
    count.push_back(p.count);
    time.push_back(p.time);
    algbw.push_back(p.algbw);
    busbw.push_back(p.busbw);
    algorithm.emplace_back(algorithm_name(r.op, p.algorithm));
    channels.push_back(p.channels);
    pieces.push_back(p.pieces);
    nccl.push_back(p.predicted_seconds);
  }
  write_replicated_column(g, "size_bytes", size, "bytes", "nccl-tests' size column (docs/output.md: what it counts per op)");
  write_replicated_column(g, "count", count, "elements", "nccl-tests' count column: elements per rank in the call");
  write_replicated_column(g, "time_ps", time, "ps", "first member's start to the last member's end");
  write_replicated_column(g, "algorithm_bandwidth_Bps", algbw, "bytes/s", "size_bytes / time (0 for 0 bytes)");
  write_replicated_column(g, "bus_bandwidth_Bps", busbw, "bytes/s",
                          "algorithm_bandwidth_Bps x bus_bandwidth_factor (nccl-tests)");
  write_replicated_strings(g, "algorithm", algorithm, "the algorithm that ran (automatic selection resolved)");
  write_replicated_column(g, "channels", channels, "channels", "parallel channels the call was split over");
  write_replicated_column(g, "pieces", pieces, "pieces", "pieces each channel's data was pipelined in");
  write_replicated_column(g, "nccl_model_time_s", nccl, "s",
                          "NCCL's own cost model for the algorithm that ran (ring, tree, NVLS); 0 where it has none");
}

}  // namespace rackscale::io
