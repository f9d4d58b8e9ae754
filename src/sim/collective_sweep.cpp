#include "sim/collective_sweep.hpp"

#include <chrono>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "models/collectives/bench_sizes.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/collectives/cost_model.hpp"
#include "models/collectives/member_layout.hpp"
#include "sim/collective_size_workload.hpp"

namespace rackscale::sim {

namespace coll = models::collectives;

namespace {
double max_over_ranks(const boost::mpi::communicator& comm, double value) {
  return boost::mpi::all_reduce(comm, value, boost::mpi::maximum<double>());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A restarted sweep: reads the --restart file and, from the position in front of the engine's state,
// the size it stopped in, the windows of the sizes before it and their results. Collective; throws
// pdes::CheckpointRefused on every rank (the position is the same on every rank).
RestartState resume_sweep(const boost::mpi::communicator& comm, const CheckpointOptions& options,
                          const pdes::CheckpointIdentity& identity, std::size_t sizes, std::uint64_t& index,
                          std::uint64_t& windows_before, std::vector<coll::CollectivePoint>& results) {
  RestartState restart = read_restart(comm, options, identity);
  try {
    std::istringstream bytes(restart.position, std::ios::binary);
    pdes::CheckpointReader in(bytes);
    in & index & windows_before & results;
  } catch (const std::exception& e) {
    throw pdes::CheckpointRefused(fmt::format("checkpoint {}: the sweep's position is unreadable ({})", options.restart, e.what()));
  }
  if (index >= sizes || results.size() != index)
    throw pdes::CheckpointRefused(fmt::format("checkpoint {}: it stopped at size {} of {} with {} results", options.restart,
                                              index, sizes, results.size()));
  return restart;
}

// The checkpoint options of one size's engine: only the size a restart resumes is restored, and
// --stop-after-windows counts the windows of the whole sweep (the engine counts its own).
CheckpointOptions size_checkpoints(const CheckpointOptions& options, bool resumed, std::uint64_t windows_before) {
  CheckpointOptions own = options;
  if (!resumed) own.restart.clear();
  if (own.stop_after_windows != 0)
    own.stop_after_windows = own.stop_after_windows > windows_before ? own.stop_after_windows - windows_before : 1;
  return own;
}
}  // namespace

coll::CollectiveReport run_collective_sweep(Session& session) {
  const models::Scenario& scenario = session.scenario();
  const boost::mpi::communicator& comm = session.comm();
  const CheckpointOptions& checkpoints = session.options().checkpoints;
  const models::workload::CollectiveBenchSpec& bench = scenario.workload.collective;
  const auto total_devices = static_cast<std::uint32_t>(session.topology().device_count());
  session.phase(fmt::format("simulating collectives over {} devices", total_devices));
  const std::uint32_t n = bench.devices == 0 ? total_devices : bench.devices;
  if (n > total_devices || n == 0)
    throw std::invalid_argument(fmt::format("workload.devices: expected 1 to {} (the cluster's devices), found {}",
                                            total_devices, n));
  // The loader checked the sweep (and bounded its length); a Scenario built in code is checked here.
  const std::vector<std::uint64_t> sizes =
      coll::sweep_sizes(bench.min_bytes, bench.max_bytes, bench.step_factor, bench.step_bytes, coll::kMaxSweepSizes);
  if (models::accelerator::has_root(bench.op) && bench.root >= n)
    throw std::invalid_argument(fmt::format("workload.root: expected a rank below {} (the devices taking part), found {}",
                                            n, bench.root));

  coll::CollectiveCall call;
  call.kind = bench.op;
  call.algorithm = bench.algorithm;
  call.root = models::accelerator::has_root(bench.op) ? bench.root : 0;
  call.members.resize(n);
  std::iota(call.members.begin(), call.members.end(), 0u);
  call.key = 1;
  call.fingerprint = coll::members_fingerprint(call.members);  // once, not by each of the n members
  const coll::MemberLayout layout = coll::analyse_members(scenario.cluster, call.members);
  try {
    (void)coll::resolve_algorithm(scenario.cluster, layout, call.kind, call.algorithm, bench.min_bytes);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("workload.algorithm: ") + e.what());
  }

  coll::CollectiveReport report;
  report.op = bench.op;
  report.requested = bench.algorithm;
  report.devices = n;
  report.topology = session.topology().description;
  report.cluster_devices = session.topology().device_count();
  report.switches = session.topology().switch_count();
  report.partition = session.partition_report();
  report.setup_seconds = session.setup_seconds();

  const coll::FabricFigures figures = coll::fabric_figures(scenario.cluster, layout);
  const auto run_start = std::chrono::steady_clock::now();
  const pdes::CheckpointIdentity identity = session.checkpoint_identity("collective");
  std::uint64_t first_size = 0, windows_before = 0;
  RestartState restart;
  if (!checkpoints.restart.empty())
    restart = resume_sweep(comm, checkpoints, identity, sizes.size(), first_size, windows_before, report.results);
  for (std::uint64_t index = first_size; index < sizes.size(); ++index) {
    const coll::BenchBuffer buffer = coll::bench_buffer(bench.op, sizes[index], bench.data_type, n);
    call.bytes = buffer.bytes;
    const auto size_start = std::chrono::steady_clock::now();
    CollectiveSizeWorkload size(session, call, figures, buffer.count);
    const bool resumed = !checkpoints.restart.empty() && index == first_size;
    const CheckpointOptions own = size_checkpoints(checkpoints, resumed, windows_before);
    EngineRun engine_run;
    engine_run.checkpoints = &own;
    engine_run.save_position = [&](pdes::CheckpointWriter& out) { out & index & windows_before & report.results; };
    engine_run.restart = resumed ? &restart : nullptr;
    engine_run.windows_before = windows_before;
    // No messages per size; a size whose engine runs longer than the progress interval reports its own
    // progress (docs/cli.md).
    engine_run.quiet = true;
    windows_before += session.run(size, engine_run).windows;
    coll::CollectivePoint point = size.point();
    point.wall_seconds = max_over_ranks(comm, seconds_since(size_start));
    report.results.push_back(point);
  }
  report.run_seconds = max_over_ranks(comm, seconds_since(run_start));
  return report;
}

}  // namespace rackscale::sim
