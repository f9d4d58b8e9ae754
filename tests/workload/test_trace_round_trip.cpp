// The trace export (docs/traces.md, "Exporting"): the training generator's programs written as Chakra
// traces and replayed on the same cluster take the generated workload's iteration time and run its
// events, on the laptop config and on a 1,024-device one.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/export_trace_command.hpp"
#include "app/trace_run.hpp"
#include "app/training_run.hpp"
#include "io/chakra/rank_map.hpp"
#include "io/config/scenario_loader.hpp"
#include "scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace wl = rackscale::models::workload;
using rackscale::app::run_trace;

boost::mpi::communicator world() { return {}; }

const std::string kSource = RACKSCALE_SOURCE_DIR;

namespace round_trip {

// The training config's iteration time, and the replay of its exported traces on the same cluster.
// Per device, or by role: one trace per pipeline stage and a rank map, replayed through the config
// reader.
void expect_round_trip(const std::string& config, const std::vector<std::string>& overrides, const std::string& name,
                       bool by_role = false) {
  const rackscale::test::ScratchDir dir(world(), name);
  std::vector<std::string> one = overrides;
  one.push_back("workload.iterations=1");
  const auto training = rackscale::io::load_scenario(kSource + "/" + config, one);
  const auto generated = rackscale::app::run_training(world(), training, {});
  const auto exported = rackscale::app::export_traces(world(), training, fs::path(dir.path()) / "traces", by_role);

  rackscale::models::Scenario replayed = training;
  replayed.workload.kind = rackscale::models::WorkloadKind::trace;
  replayed.workload.trace.files = exported.files;
  replayed.workload.trace.ranks = static_cast<std::uint32_t>(training.cluster.devices());
  if (by_role) {
    EXPECT_EQ(exported.traces, training.workload.training.parallel.pipeline);
    replayed.workload.trace.rank_map = exported.rank_map;
    replayed.workload.trace.role_of =
        rackscale::io::read_rank_map(exported.rank_map, replayed.workload.trace.ranks, exported.traces);
  }
  const wl::TraceReport report = run_trace(world(), replayed, {});
  ASSERT_EQ(generated.iteration_times.size(), 1u);
  EXPECT_EQ(report.makespan, generated.iteration_times[0]);
  EXPECT_EQ(report.ranks, training.cluster.devices());
  // The replay runs the generator's events, no more and no fewer (the engine's totals are rank 0's).
  if (world().rank() == 0) {
    EXPECT_EQ(report.engine.total.events_processed, generated.engine.total.events_processed);
  }
}

}  // namespace round_trip

// In analytical fidelity. In chunk fidelity the replay differs by about 0.02% (144.068 against 144.094 ms
// for the laptop config): its collectives are keyed differently, so their chunks take other flows and
// meet in another order at the ports (docs/traces.md, "Exporting").
TEST(TraceExport, ReplayingTheLaptopConfigsExportedTracesTakesItsIterationTime) {
  round_trip::expect_round_trip("configs/training/laptop-64.yaml", {"network.fidelity=analytical"}, "export-laptop");
}

// Llama 3 70B on 1,024 H100s (TP 8, PP 4 interleaved, DP 32) with 4 micro-batches per replica instead of 16,
// so that its traces take 222 MB rather than 844 MB of scratch space.
TEST(TraceExport, ReplayingA1024DeviceConfigsExportedTracesTakesItsIterationTime) {
  round_trip::expect_round_trip("configs/training/llama3-70b-1024-h100.yaml",
                                {"network.fidelity=analytical", "workload.parallel.global_batch=128"}, "export-1024");
}

}  // namespace

namespace {

// By role (docs/traces.md, "One trace per role"): one trace per pipeline stage (2 for laptop-64, 4 for
// the 1,024-device job) and a rank map replay in the generator's iteration time, as the per-device
// traces do.
TEST(TraceExport, ReplayingTheLaptopConfigsRoleTracesTakesItsIterationTime) {
  round_trip::expect_round_trip("configs/training/laptop-64.yaml", {"network.fidelity=analytical"}, "export-laptop-roles",
                                true);
}

TEST(TraceExport, ReplayingA1024DeviceConfigsRoleTracesTakesItsIterationTime) {
  round_trip::expect_round_trip("configs/training/llama3-70b-1024-h100.yaml",
                                {"network.fidelity=analytical", "workload.parallel.global_batch=128"}, "export-1024-roles",
                                true);
}

}  // namespace
