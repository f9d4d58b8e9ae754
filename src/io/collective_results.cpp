#include "io/collective_results.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "io/collective_summary.hpp"
#include "io/results_columns.hpp"

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

  hdf5::Group g = file.create_group("collective");
  g.set_attribute("description", "an nccl-tests style sweep: one call of the collective per message size, over the "
                                 "first `devices` devices, timed from the first member's start to the last one's end");
  g.set_attribute("op", collective_name(r.op));
  g.set_attribute("devices", std::uint64_t{r.devices});
  g.set_attribute("algorithm_requested", algorithm_name(r.op, r.requested));
  g.set_attribute("busbw_factor", coll::bus_bandwidth_factor(r.op, r.devices));

  std::vector<std::uint64_t> bytes, time;
  std::vector<double> algbw, busbw, nccl;
  std::vector<std::string> algorithm;
  std::vector<std::uint32_t> channels, pieces;
  for (const auto& p : r.results) {
    bytes.push_back(p.bytes);
    time.push_back(p.time);
    algbw.push_back(p.algbw);
    busbw.push_back(p.busbw);
    algorithm.emplace_back(algorithm_name(r.op, p.algorithm));
    channels.push_back(p.channels);
    pieces.push_back(p.pieces);
    nccl.push_back(p.predicted_seconds);
  }
  write_replicated_column(g, "bytes", bytes, "bytes", "message size: each member's buffer");
  write_replicated_column(g, "time_ps", time, "ps", "first member's start to the last member's end");
  write_replicated_column(g, "algbw_Bps", algbw, "bytes/s", "algorithm bandwidth: bytes / time");
  write_replicated_column(g, "busbw_Bps", busbw, "bytes/s", "bus bandwidth: algbw x busbw_factor (nccl-tests)");
  write_replicated_strings(g, "algorithm", algorithm, "the algorithm that ran (automatic selection resolved)");
  write_replicated_column(g, "channels", channels, "channels", "parallel channels the call was split over");
  write_replicated_column(g, "pieces", pieces, "pieces", "pieces each channel's data was pipelined in");
  write_replicated_column(g, "nccl_model_s", nccl, "s",
                          "NCCL's own cost model for the algorithm that ran (ring, tree); 0 where it has none");
}

}  // namespace rackscale::io
