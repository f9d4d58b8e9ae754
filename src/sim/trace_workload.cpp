#include "sim/trace_workload.hpp"

#include <algorithm>
#include <compare>
#include <limits>
#include <tuple>
#include <utility>

#include <boost/mpi/collectives/all_gather.hpp>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "models/collectives/collective_engine.hpp"
#include "models/network/idle_device.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/rack_graph.hpp"
#include "pdes/error.hpp"

namespace rackscale::sim {

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
Programs read_local_traces(const Session& session, const TraceReader& read) {
  const models::Scenario& scenario = session.scenario();
  const wl::TraceWorkloadSpec& spec = scenario.workload.trace;
  const net::Topology& topology = session.topology();
  const pdes::RankMap owners = net::lp_rank_map(topology, session.placement().rack_rank, session.comm().size());
  Programs programs;
  std::pair<std::uint32_t, std::string> error{std::numeric_limits<std::uint32_t>::max(), ""};
  // A trace read and its dependencies ordered: by role, once per role, by the first of this rank's
  // devices that replays it, and shared by the others.
  struct Read {
    wl::TraceGraph graph;
    std::shared_ptr<const wl::ReplayTrace> trace;
  };
  std::map<std::uint32_t, Read> roles;
  for (std::uint32_t rank = 0; rank < spec.ranks; ++rank) {
    const std::uint32_t device = spec.device_of(rank);
    if (owners.owner(topology.devices[device]) != session.comm().rank()) continue;
    const std::string file = spec.file_of(rank);
    try {
      Read own;
      Read* trace = &own;
      bool unread = true;
      if (spec.by_role()) {
        const auto [role, inserted] = roles.try_emplace(spec.role_of[rank]);
        trace = &role->second;
        unread = inserted;
      }
      if (unread) {
        trace->graph = read(file);
        trace->trace = wl::replay_trace(trace->graph, spec, scenario.cluster.accelerator);
      }
      programs.emplace(device, std::make_shared<const wl::TraceProgram>(
                                   wl::build_trace_program(trace->graph, trace->trace, rank, spec)));
    } catch (const TraceReplayRefused& e) {
      error = {rank, e.what()};
    } catch (const wl::TraceGraphError& e) {
      error = {rank, spec.by_role() ? fmt::format("{} (replayed by traced rank {}): {}", file, rank, e.what())
                                    : fmt::format("{}: {}", file, e.what())};
    }
    if (!error.second.empty()) break;
  }
  agree_on_error(session.comm(), std::move(error));
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

// The per-traced-rank figures, in declaration order: the row of traced rank r is recorded by the rank
// that replayed it (zero elsewhere), so that a sum over ranks is that rank's figure.
struct RankFigure {
  const char* name;
  const char* units;
  const char* description;
  std::uint64_t (*of)(const wl::TraceDevice&);
};
const RankFigure kRankFigures[] = {
    {"rank_ops", "ops", "the traced rank's ops", [](const wl::TraceDevice& d) -> std::uint64_t { return d.program().ops().size(); }},
    {"rank_compute_ps", "ps", "time the traced rank's compute units were busy",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().compute; }},
    {"rank_host_ps", "ps", "time the traced rank's host thread was busy (cpu_ops: serialize)",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().host; }},
    {"rank_memory_ps", "ps", "time the traced rank's copy engine was busy",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().memory; }},
    {"rank_communication_ps", "ps", "time the traced rank had a collective, send or receive in flight",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().communication; }},
    {"rank_collectives", "calls", "collectives the traced rank called",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().collectives; }},
    {"rank_sends", "messages", "point-to-point sends of the traced rank",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().sends; }},
    {"rank_receives", "messages", "point-to-point receives of the traced rank",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().receives; }},
    {"rank_bytes_sent", "bytes", "point-to-point payload the traced rank sent",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().bytes_sent; }},
    {"rank_end_ps", "ps", "when the traced rank's last op finished",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().end; }},
    {"rank_critical_path_ps", "ps", "the traced rank's longest dependency chain, each op weighted by its replayed time",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().critical_path; }},
    {"rank_critical_ops", "ops", "ops on the traced rank's critical path",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().critical_ops; }},
    {"rank_critical_first_node", "node id", "the trace node its critical path starts at",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().critical_first; }},
    {"rank_critical_last_node", "node id", "the trace node its critical path ends at",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.stats().critical_last; }},
    {"rank_unfinished_ops", "ops", "ops of the traced rank that had not finished when the run ended (0 in a complete replay)",
     [](const wl::TraceDevice& d) -> std::uint64_t { return d.program().ops().size() - d.work().done; }},
    {"rank_first_unfinished_node", "node id", "the first unfinished op's trace node (0 when all finished)",
     [](const wl::TraceDevice& d) -> std::uint64_t {
       const wl::ReplayOp* op = d.first_unfinished();
       return op == nullptr ? 0 : op->node;
     }},
};

}  // namespace

TraceWorkload::TraceWorkload(Session& session, const TraceReader& read, TraceObserver on_finished)
    : session_(session), on_finished_(std::move(on_finished)) {
  const wl::TraceWorkloadSpec& spec = session.scenario().workload.trace;
  session.phase(fmt::format("reading the traces of {} ranks", spec.ranks));
  programs_ = read_local_traces(session, read);
  check_point_to_point(session.comm(), spec, programs_);
  session.fill_header(report_);
  report_.files = spec.files;
  report_.ranks = spec.ranks;
}

std::unique_ptr<net::DeviceBehaviour> TraceWorkload::make_device(std::uint32_t device) {
  const auto program = programs_.find(device);
  if (program == programs_.end()) return std::make_unique<net::IdleDevice>();  // traced by no one
  const models::Scenario& scenario = session_.scenario();
  auto replay = std::make_unique<wl::TraceDevice>(
      program->second, models::collectives::make_collective_engine(scenario.cluster, session_.topology(),
                                                                   models::collectives::CollectiveOptions{}, layouts_));
  devices_.push_back(replay.get());
  return replay;
}

pdes::WorkDone TraceWorkload::work() const {
  pdes::WorkDone work;
  for (const wl::TraceDevice* device : devices_) work += device->work();
  return work;
}

void TraceWorkload::record(const FinishedRun& /*run*/, pdes::StatisticRegistry& registry) {
  const std::uint32_t ranks = session_.scenario().workload.trace.ranks;
  pdes::SimTime makespan = 0;
  std::uint64_t ops = 0;
  for (const wl::TraceDevice* device : devices_) {
    makespan = std::max(makespan, device->stats().end);
    ops += device->program().ops().size();
  }
  registry.values("makespan_ps", "ps", "the last op's end on any traced rank", pdes::Combine::max).record(makespan);
  registry.values("ops", "ops", "ops of every trace", pdes::Combine::sum).record(ops);
  for (const RankFigure& figure : kRankFigures) {
    pdes::Statistic statistic =
        registry.values(figure.name, figure.units, figure.description + std::string(", by traced rank"),
                        pdes::Combine::sum, ranks);
    for (const wl::TraceDevice* device : devices_) statistic.record(figure.of(*device), device->program().rank);
  }
}

void TraceWorkload::finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) {
  const wl::TraceWorkloadSpec& spec = session_.scenario().workload.trace;
  const auto row = [&figures](const char* name, std::uint32_t rank) { return figures[name].values[rank]; };
  // A rank that never finished stops the run, on every rank alike: the reduced rows are the same everywhere.
  std::uint32_t unfinished = 0;
  for (std::uint32_t rank = 0; rank < spec.ranks; ++rank) if (row("rank_unfinished_ops", rank) > 0) ++unfinished;
  for (std::uint32_t rank = 0; rank < spec.ranks && unfinished > 0; ++rank)
    if (row("rank_unfinished_ops", rank) > 0)
      throw pdes::SimulationError(
          0, fmt::format("trace replay: {} of {} traced ranks did not finish; the first, rank {}, waits at node {} of {} "
                         "(a collective its group's other members never call, or the run's end came first)",
                         unfinished, spec.ranks, rank, row("rank_first_unfinished_node", rank), spec.file_of(rank)));

  report_.statistics = figures;
  report_.setup_seconds = session_.setup_seconds();
  report_.engine = pdes::gather_stats(run.comm, run.engine_stats);
  report_.run_seconds =
      boost::mpi::all_reduce(run.comm, run.engine_stats.wall_seconds, boost::mpi::maximum<double>());
  report_.makespan = figures["makespan_ps"].values[0];
  report_.ops = figures["ops"].values[0];
  report_.per_rank.clear();
  for (std::uint32_t rank = 0; rank < spec.ranks; ++rank) {
    wl::TraceRankFigures f;
    f.rank = rank;
    f.device = spec.device_of(rank);
    f.ops = row("rank_ops", rank);
    wl::TraceDeviceStats& s = f.stats;
    s.compute = row("rank_compute_ps", rank);
    s.host = row("rank_host_ps", rank);
    s.memory = row("rank_memory_ps", rank);
    s.communication = row("rank_communication_ps", rank);
    s.collectives = row("rank_collectives", rank);
    s.sends = row("rank_sends", rank);
    s.receives = row("rank_receives", rank);
    s.bytes_sent = row("rank_bytes_sent", rank);
    s.end = row("rank_end_ps", rank);
    s.finished = true;
    s.critical_path = row("rank_critical_path_ps", rank);
    s.critical_ops = row("rank_critical_ops", rank);
    s.critical_first = row("rank_critical_first_node", rank);
    s.critical_last = row("rank_critical_last_node", rank);
    // The longest critical path; the first rank of that length.
    if (s.critical_path > report_.critical_path || report_.critical_ops == 0) {
      report_.critical_rank = rank;
      report_.critical_path = s.critical_path;
      report_.critical_ops = s.critical_ops;
      report_.critical_first = s.critical_first;
      report_.critical_last = s.critical_last;
    }
    report_.per_rank.push_back(f);
  }
  if (on_finished_) on_finished_(run, report_);
}

}  // namespace rackscale::sim
