#include "app/collective_run.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "app/exit_codes.hpp"
#include "app/run_failure.hpp"
#include "app/scenario_errors.hpp"
#include "app/version.hpp"
#include "io/collective_results.hpp"
#include "io/collective_summary.hpp"
#include "models/collectives/bench_sizes.hpp"
#include "models/collectives/collective_bench_device.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/collectives/cost_model.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/network/build_topology.hpp"
#include "app/memory_phase.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/partition_report.hpp"
#include "models/network/rack_graph.hpp"
#include "partition/partitioner.hpp"
#include "pdes/engine.hpp"
#include "pdes/error.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::app {

namespace net = models::network;
namespace coll = models::collectives;
using models::accelerator::Algorithm;
using models::accelerator::CollectiveKind;

namespace {
double max_over_ranks(const boost::mpi::communicator& comm, double value) {
  return boost::mpi::all_reduce(comm, value, boost::mpi::maximum<double>());
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

coll::CollectiveReport run_collective(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                const RunOptions& options) {
  const auto setup_start = std::chrono::steady_clock::now();
  const models::workload::CollectiveBenchSpec& bench = scenario.workload.collective;
  MemoryPhase phase("building the topology");
  const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  phase.set(fmt::format("simulating collectives over {} devices", topology.device_count()));
  const auto total_devices = static_cast<std::uint32_t>(topology.device_count());
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

  const auto [method, rack_rank] = place_racks(comm, topology, scenario, options);

  coll::CollectiveReport report;
  report.op = bench.op;
  report.requested = bench.algorithm;
  report.devices = n;
  report.topology = topology.description;
  report.cluster_devices = topology.device_count();
  report.switches = topology.switch_count();
  report.partition = net::partition_report(topology, method, rack_rank, comm.size());
  report.setup_seconds = max_over_ranks(
      comm, std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count());

  const coll::FabricFigures figures = coll::fabric_figures(scenario.cluster, layout);
  coll::CollectiveOptions collective_options;
  const auto run_start = std::chrono::steady_clock::now();
  // Checkpoints: every size's engine is checkpointed as one run's, with the sweep's position (the size
  // it is at, the windows of the sizes before, their results) in front; a restart skips to that size.
  // --stop-after-windows counts the windows of the whole sweep.
  const pdes::CheckpointIdentity identity{
      "collective", options.config_hash, pdes::partition_hash(net::lp_rank_map(topology, rack_rank, comm.size()))};
  std::uint64_t first_size = 0, windows_before = 0;
  RestartState restart;
  if (!options.checkpoints.restart.empty())
    restart = resume_sweep(comm, options.checkpoints, identity, sizes.size(), first_size, windows_before, report.results);
  for (std::uint64_t index = first_size; index < sizes.size(); ++index) {
    const std::uint64_t size = sizes[index];
    const coll::BenchBuffer buffer = coll::bench_buffer(bench.op, size, bench.data_type, n);
    const std::uint64_t bytes = buffer.bytes;
    call.bytes = bytes;
    const auto size_start = std::chrono::steady_clock::now();
    // A fresh engine per size, as nccl-tests times each size on its own.
    pdes::EngineOptions engine_options = engine_options_for(scenario, options);
    engine_options.progress = nullptr;  // each size's engine runs briefly: the sweep shows no progress (docs/cli.md)
    pdes::Engine engine(comm, net::lp_rank_map(topology, rack_rank, comm.size()), engine_options);
    net::NetworkContext network(topology, scenario.network);
    coll::BenchStats stats;
    // One layout cache for the rank's engines: each call's member list is analysed once per rank.
    const auto layouts = std::make_shared<coll::MemberLayouts>();
    net::add_network_lps(engine, network, [&](std::uint32_t) {
      return std::make_unique<coll::CollectiveBenchDevice>(
          coll::make_collective_engine(scenario.cluster, topology, collective_options, layouts), call, stats);
    });
    const bool resumed = !options.checkpoints.restart.empty() && index == first_size;
    prepare_checkpoints(comm, engine, size_checkpoints(options.checkpoints, resumed, windows_before), identity,
                        {[&](pdes::CheckpointWriter& out) { out & network.counters & stats; },
                         [&](pdes::CheckpointReader& in) { in & network.counters & stats; },
                         [&](pdes::CheckpointWriter& out) { out & index & windows_before & report.results; }},
                        resumed ? &restart : nullptr);
    const pdes::EngineStats engine_stats = engine.run(scenario.simulation.end);
    pdes::EngineStats sweep_stats = engine_stats;
    sweep_stats.windows += windows_before;
    throw_if_stopped(sweep_stats, options.checkpoints);
    windows_before += engine_stats.windows;

    coll::CollectivePoint point;
    point.bytes = bytes;
    point.count = buffer.count;
    const pdes::SimTime first = pdes::min_over_ranks(comm, stats.first_start);
    const pdes::SimTime last = pdes::max_over_ranks(comm, stats.last_end);
    const std::uint64_t completed =
        boost::mpi::all_reduce(comm, stats.completed, std::plus<std::uint64_t>());
    if (completed != n)
      throw pdes::SimulationError(0, fmt::format("collective of {} bytes: {} of {} members finished before the run's end",
                                              bytes, completed, n));
    point.time = last - first;
    point.algorithm = static_cast<Algorithm>(
        boost::mpi::all_reduce(comm, static_cast<int>(stats.algorithm), boost::mpi::maximum<int>()));
    const coll::CallPlan plan = coll::plan_call(scenario.cluster, call, {});
    point.channels = plan.channels;
    point.pieces = plan.pieces;
    // NCCL's model covers its ring (broadcast and reduce: their chain), tree and NVLS; its all-to-all,
    // gather, scatter and sendrecv are grouped point-to-point, which it does not model.
    const bool nccl_algorithm =
        point.algorithm == Algorithm::ring || point.algorithm == Algorithm::tree || point.algorithm == Algorithm::nvls;
    if (nccl_algorithm && !models::accelerator::is_point_to_point(bench.op) && bytes > 0)
      point.predicted_seconds = coll::predict(bench.op, point.algorithm, bytes, figures).seconds;
    if (point.time > 0) {
      point.algbw = static_cast<double>(bytes) / pdes::to_seconds(point.time);
      point.busbw = point.algbw * coll::bus_bandwidth_factor(bench.op, n);
    }
    point.events = boost::mpi::all_reduce(comm, engine_stats.events_processed, std::plus<std::uint64_t>());
    point.windows = engine_stats.windows;
    point.final_time = engine_stats.final_time;
    point.engine = pdes::gather_stats(comm, engine_stats);
    point.wall_seconds =
        max_over_ranks(comm, std::chrono::duration<double>(std::chrono::steady_clock::now() - size_start).count());
    report.results.push_back(point);
  }
  report.run_seconds =
      max_over_ranks(comm, std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count());
  return report;
}

int run_collective_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                            const RunOptions& options, bool json, const OutputOptions& output) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale run: " << message << '\n';
    return code;
  };
  if (const std::string refused = check_output(comm, output); !refused.empty()) return fail(kExitBadInput, refused);
  coll::CollectiveReport report;
  try {
    report = run_collective(comm, scenario, options);
    write_results_file(comm, output, [&](io::hdf5::File& file) {
      io::write_collective_results(file, scenario, report, {kVersion, kGitRevision});
    });
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << io::collective_summary(scenario, report);
  if (json) std::cout << io::collective_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
