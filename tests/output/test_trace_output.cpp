// Results files of trace replays (`rackscale run --output` on a `type: trace` workload), read back with
// the plain HDF5 API: ASTRA-sim's 16-rank all-reduce trace writes the cluster's groups, /devices with the
// traced rank of each device, /trace with the report's figures, critical path and per-rank table, and
// /statistics with the reduced figures it came from; every results dataset and /trace's attributes are
// the same on any rank count as on one.
#include <cstdint>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/results_output.hpp"
#include "app/trace_run.hpp"
#include "app/version.hpp"
#include "h5_reader.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/trace_results.hpp"
#include "scratch_dir.hpp"

namespace {
namespace app = rackscale::app;
namespace io = rackscale::io;
namespace wl = rackscale::models::workload;
using rackscale::test::H5Reader;
using rackscale::test::ScratchDir;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::Scenario all_reduce_16() {
  return io::load_scenario(std::string(RACKSCALE_TRACE_CONFIGS) + "/astra-sim-all-reduce-16.yaml", {});
}

wl::TraceReport run(const boost::mpi::communicator& comm, const rackscale::models::Scenario& s, const std::string& path,
                    const std::string& method = "") {
  app::RunOptions options;
  options.partition = method;
  return app::run_trace(comm, s, options, [&](const rackscale::sim::FinishedRun& finished, const wl::TraceReport& report) {
    app::write_results_file(comm, {path, false}, [&](io::hdf5::File& file) {
      io::write_trace_results(file, s, finished, report, {"test", "none"});
    });
  });
}
}  // namespace

TEST(TraceOutput, TheFileHoldsTheReplaysFiguresAsTheReportHasThem) {
  const auto comm = world();
  const ScratchDir dir(comm, "trace-output");
  const auto s = all_reduce_16();
  const std::string path = dir / "replay.h5";
  const wl::TraceReport report = run(comm, s, path);
  if (comm.rank() != 0) return;
  const H5Reader in(path);
  EXPECT_EQ(in.string_attribute("/", "workload"), "trace");
  EXPECT_EQ(in.attribute<std::int64_t>("/", "ranks"), comm.size());
  EXPECT_EQ(in.read<std::uint32_t>("/nodes/device").size(), 19u);  // 16 devices, 3 switches
  std::vector<std::uint32_t> traced(16);
  for (std::uint32_t r = 0; r < 16; ++r) traced[r] = r;
  EXPECT_EQ(in.read<std::uint32_t>("/devices/traced_rank"), traced);

  EXPECT_EQ(in.attribute<std::uint64_t>("/trace", "ranks"), 16u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/trace", "ops"), 16u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/trace", "makespan_ps"), report.makespan);
  EXPECT_GT(report.makespan, 0u);
  EXPECT_EQ(in.string_attribute("/trace", "control_dependencies"), "honor");
  EXPECT_EQ(in.attribute<std::uint64_t>("/trace/critical_path", "length_ps"), report.critical_path);
  EXPECT_EQ(in.attribute<std::uint64_t>("/trace/critical_path", "rank"), report.critical_rank);
  EXPECT_EQ(in.attribute<std::uint64_t>("/links", "makespan_ps"), report.makespan);

  std::vector<std::uint64_t> ends, collectives;
  for (const wl::TraceRankFigures& f : report.per_rank) {
    ends.push_back(f.stats.end);
    collectives.push_back(f.stats.collectives);
  }
  EXPECT_EQ(in.read<std::uint64_t>("/trace/per_rank/end_ps"), ends);
  EXPECT_EQ(in.read<std::uint64_t>("/trace/per_rank/collectives"), std::vector<std::uint64_t>(16, 1));
  EXPECT_EQ(in.read<std::uint64_t>("/trace/per_rank/collectives"), collectives);
  // The statistics the report was derived from.
  EXPECT_EQ(in.read<std::uint64_t>("/statistics/makespan_ps"), std::vector<std::uint64_t>{report.makespan});
  EXPECT_EQ(in.read<std::uint64_t>("/statistics/rank_end_ps"), ends);
  EXPECT_EQ(in.read<std::uint64_t>("/statistics/rank_unfinished_ops"), std::vector<std::uint64_t>(16, 0));
}

TEST(TraceOutput, ResultsAreIdenticalToASequentialRunForEveryPartitionMethod) {
  const auto comm = world();
  const ScratchDir dir(comm, "trace-identical");
  const auto s = all_reduce_16();
  const std::string reference = dir / "sequential.h5";
  if (comm.rank() == 0) (void)run(self(), s, reference);
  comm.barrier();
  for (const std::string method : {"block", "round_robin"}) {
    SCOPED_TRACE(method);
    const std::string path = dir / (method + ".h5");
    (void)run(comm, s, path, method);
    if (comm.rank() != 0) continue;
    rackscale::test::expect_same_results(H5Reader(reference), H5Reader(path), 50, {"/trace", "/trace/critical_path"});
  }
}
