#include "app/trace_run.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <compare>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/mpi/collectives/all_gather.hpp>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "app/exit_codes.hpp"
#include "app/memory_phase.hpp"
#include "app/run_failure.hpp"
#include "io/chakra/chakra_file.hpp"
#include "io/config/config_error.hpp"
#include "io/trace_replay_summary.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/partition_report.hpp"
#include "models/network/rack_graph.hpp"
#include "models/workload/trace_device.hpp"
#include "models/workload/trace_program.hpp"
#include "pdes/engine.hpp"
#include "pdes/error.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

namespace net = models::network;
namespace wl = models::workload;

namespace {

using Programs = std::map<std::uint32_t, std::shared_ptr<const wl::TraceProgram>>;  // by device

// The error of the lowest traced rank that has one, thrown on every rank (so that the message does not
// depend on how the devices are spread over ranks).
void agree_on_error(const boost::mpi::communicator& comm, std::pair<std::uint32_t, std::string> mine) {
  std::vector<std::pair<std::uint32_t, std::string>> all;
  boost::mpi::all_gather(comm, mine, all);
  const auto first = std::min_element(all.begin(), all.end());
  if (!first->second.empty()) throw TraceReplayRefused(first->second);
}

// Reads and prepares the traces of this rank's devices only. Collective.
Programs read_local_traces(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                           const net::Topology& topology, const pdes::RankMap& owners) {
  const wl::TraceWorkloadSpec& spec = scenario.workload.trace;
  Programs programs;
  std::pair<std::uint32_t, std::string> error{std::numeric_limits<std::uint32_t>::max(), ""};
  for (std::uint32_t rank = 0; rank < spec.ranks; ++rank) {
    const std::uint32_t device = spec.device_of(rank);
    if (owners.owner(topology.devices[device]) != comm.rank()) continue;
    const std::string file = spec.file_of(rank);
    try {
      const wl::TraceGraph graph = io::read_chakra_trace(file);
      programs.emplace(device, std::make_shared<const wl::TraceProgram>(
                                   wl::build_trace_program(graph, rank, spec, scenario.cluster.accelerator)));
    } catch (const io::ConfigError& e) {
      error = {rank, e.what()};
    } catch (const wl::TraceGraphError& e) {
      error = {rank, fmt::format("{}: {}", file, e.what())};
    }
    if (!error.second.empty()) break;
  }
  agree_on_error(comm, std::move(error));
  return programs;
}

// Sends and receives between two traced ranks with one tag: their count on each side and the first
// node of each.
struct PairCount {
  std::uint64_t sends = 0, receives = 0;
  std::uint64_t send_node = 0, receive_node = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & sends & receives & send_node & receive_node;
  }
};
struct PairKey {
  std::uint32_t source = 0, destination = 0;  // traced ranks
  std::int64_t tag = 0;
  auto operator<=>(const PairKey&) const = default;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & source & destination & tag;
  }
};

// Every send has its receive and every receive its send, matched by source, destination and tag, over
// all traces (each rank counts its own). Collective.
void check_point_to_point(const boost::mpi::communicator& comm, const wl::TraceWorkloadSpec& spec,
                          const Programs& programs) {
  std::map<PairKey, PairCount> mine;
  for (const auto& [device, program] : programs)
    for (const wl::PointToPoint& p : program->point_to_point) {
      PairCount& c = mine[{p.source, p.destination, p.tag}];
      if (p.send && c.sends++ == 0) c.send_node = p.node;
      if (!p.send && c.receives++ == 0) c.receive_node = p.node;
    }
  std::vector<std::pair<PairKey, PairCount>> local(mine.begin(), mine.end());
  std::vector<std::vector<std::pair<PairKey, PairCount>>> all;
  boost::mpi::all_gather(comm, local, all);
  std::map<PairKey, PairCount> total;
  for (const auto& part : all)
    for (const auto& [key, count] : part) {
      PairCount& t = total[key];
      if (count.sends > 0 && t.sends == 0) t.send_node = count.send_node;
      if (count.receives > 0 && t.receives == 0) t.receive_node = count.receive_node;
      t.sends += count.sends;
      t.receives += count.receives;
    }
  for (const auto& [key, c] : total) {
    const auto [source, destination, tag] = std::tuple(key.source, key.destination, key.tag);
    if (c.sends > c.receives)
      throw TraceReplayRefused(fmt::format(
          "{}: node {}: send to rank {} with tag {}: expected a receive from rank {} with tag {} in {} for each of its {} "
          "send(s), found {}",
          spec.file_of(source), c.send_node, destination, tag, source, tag, spec.file_of(destination), c.sends,
          c.receives));
    if (c.receives > c.sends)
      throw TraceReplayRefused(fmt::format(
          "{}: node {}: receive from rank {} with tag {}: expected a send to rank {} with tag {} in {} for each of its "
          "{} receive(s), found {}",
          spec.file_of(destination), c.receive_node, source, tag, destination, tag, spec.file_of(source), c.receives,
          c.sends));
  }
}

double max_over_ranks(const boost::mpi::communicator& comm, double value) {
  return boost::mpi::all_reduce(comm, value, boost::mpi::maximum<double>());
}

// The figures of every traced rank, in rank order, on every rank; the run's totals from them.
void gather_figures(const boost::mpi::communicator& comm, const wl::TraceWorkloadSpec& spec,
                    const std::vector<std::pair<std::uint32_t, const wl::TraceDevice*>>& devices, wl::TraceReport& report) {
  std::vector<wl::TraceRankFigures> mine;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> stuck;  // rank, first unfinished node
  for (const auto& [device, replay] : devices) {
    wl::TraceRankFigures f;
    f.rank = replay->program().rank;
    f.device = device;
    f.ops = replay->program().ops.size();
    f.stats = replay->stats();
    if (!f.stats.finished) stuck.emplace_back(f.rank, replay->first_unfinished()->node);
    mine.push_back(f);
  }
  std::vector<std::vector<wl::TraceRankFigures>> all;
  boost::mpi::all_gather(comm, mine, all);
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> all_stuck;
  boost::mpi::all_gather(comm, stuck, all_stuck);
  std::vector<std::pair<std::uint32_t, std::uint64_t>> unfinished;
  for (const auto& part : all_stuck) unfinished.insert(unfinished.end(), part.begin(), part.end());
  if (!unfinished.empty()) {
    std::sort(unfinished.begin(), unfinished.end());
    const auto [rank, node] = unfinished.front();
    throw pdes::SimulationError(
        0, fmt::format("trace replay: {} of {} traced ranks did not finish; the first, rank {}, waits at node {} of {} "
                       "(a collective its group's other members never call, or the run's end came first)",
                       unfinished.size(), spec.ranks, rank, node, spec.file_of(rank)));
  }
  for (auto& part : all) report.per_rank.insert(report.per_rank.end(), part.begin(), part.end());
  std::sort(report.per_rank.begin(), report.per_rank.end(),
            [](const auto& a, const auto& b) { return a.rank < b.rank; });
  for (const wl::TraceRankFigures& f : report.per_rank) {
    report.makespan = std::max(report.makespan, f.stats.end);
    report.ops += f.ops;
    if (f.stats.critical_path > report.critical_path || report.critical_ops == 0) {
      report.critical_rank = f.rank;
      report.critical_path = f.stats.critical_path;
      report.critical_ops = f.stats.critical_ops;
      report.critical_first = f.stats.critical_first;
      report.critical_last = f.stats.critical_last;
    }
  }
}

}  // namespace

wl::TraceReport run_trace(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                          const RunOptions& options) {
  const auto setup_start = std::chrono::steady_clock::now();
  const wl::TraceWorkloadSpec& spec = scenario.workload.trace;
  MemoryPhase phase("building the topology");
  const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  const auto [method, rack_rank] = sim::place_racks(comm, topology, scenario, options);
  pdes::RankMap owners = net::lp_rank_map(topology, rack_rank, comm.size());

  phase.set(fmt::format("reading the traces of {} ranks", spec.ranks));
  const Programs programs = read_local_traces(comm, scenario, topology, owners);
  check_point_to_point(comm, spec, programs);

  phase.set(fmt::format("building the LPs of {} devices and their network", topology.device_count()));
  pdes::Engine engine(comm, std::move(owners), sim::engine_options_for(scenario, options));
  net::NetworkContext network(topology, scenario.network);
  const models::collectives::CollectiveOptions collective_options;
  const auto layouts = std::make_shared<models::collectives::MemberLayouts>();
  std::vector<std::pair<std::uint32_t, const wl::TraceDevice*>> devices;  // this rank's replays, by device
  net::add_network_lps(engine, network, [&](std::uint32_t device) -> std::unique_ptr<net::DeviceBehaviour> {
    const auto program = programs.find(device);
    if (program == programs.end()) return std::make_unique<net::DeviceBehaviour>();  // traced by no one: idle
    auto replay = std::make_unique<wl::TraceDevice>(
        program->second, models::collectives::make_collective_engine(scenario.cluster, topology, collective_options, layouts));
    devices.emplace_back(device, replay.get());
    return replay;
  });
  engine.set_work_gauge([&devices] {
    pdes::WorkDone work;
    for (const auto& entry : devices) work += entry.second->work();
    return work;
  });

  wl::TraceReport report;
  report.files = spec.files;
  report.ranks = spec.ranks;
  report.topology = topology.description;
  report.cluster_devices = topology.device_count();
  report.switches = topology.switch_count();
  report.partition = net::partition_report(topology, method, rack_rank, comm.size());
  report.setup_seconds =
      max_over_ranks(comm, std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count());

  phase.set(fmt::format("replaying {} traces", spec.ranks));
  const auto run_start = std::chrono::steady_clock::now();
  const pdes::EngineStats engine_stats = engine.run(scenario.simulation.end);
  report.run_seconds =
      max_over_ranks(comm, std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count());
  report.engine = pdes::gather_stats(comm, engine_stats);
  gather_figures(comm, spec, devices, report);
  return report;
}

std::string trace_run_refusal(const RunOptions& options, const OutputOptions& output) {
  if (!output.path.empty()) return "--output: a trace replay writes no results file yet (--json has its figures)";
  if (!options.checkpoints.checkpoint.empty() || !options.checkpoints.restart.empty())
    return "--checkpoint and --restart are not available for a trace replay";
  return "";
}

int run_trace_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
                       bool json) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale run: " << message << '\n';
    return code;
  };
  wl::TraceReport report;
  try {
    report = run_trace(comm, scenario, options);
  } catch (const TraceReplayRefused& e) {
    return fail(kExitBadInput, e.what());
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << io::trace_replay_summary(scenario, report);
  if (json) std::cout << io::trace_replay_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
