#include "sim/session.hpp"

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "models/network/build_topology.hpp"
#include "models/network/degraded_links.hpp"
#include "models/network/network_context.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/rack_graph.hpp"
#include "partition/partitioner.hpp"
#include "sim/one_replica.hpp"

namespace rackscale::sim {

namespace net = models::network;

namespace {
net::Topology marked_topology(const PhaseMarker& phase, const models::Scenario& scenario) {
  if (phase) phase("building the topology");
  net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  net::degrade_links(topology, scenario.cluster.degraded_links);
  return topology;
}
}  // namespace

RackPlacement place_racks(const boost::mpi::communicator& comm, const net::Topology& topology,
                          const models::Scenario& scenario, const RunOptions& options) {
  RackPlacement placement{options.partition.empty() ? scenario.simulation.partition : options.partition, {}};
  (void)partition::make_partitioner(placement.method);
  if (comm.rank() == 0)
    placement.rack_rank = net::partition_racks(topology, placement.method, comm.size(), scenario.network.fidelity,
                                               replica_mirror_of(scenario));
  boost::mpi::broadcast(comm, placement.rack_rank, 0);
  return placement;
}

pdes::EngineOptions engine_options_for(const models::Scenario& scenario, const RunOptions& options) {
  pdes::EngineOptions engine_options;
  if (!options.queue.empty()) engine_options.queue = options.queue;
  engine_options.sync = options.sync;
  engine_options.seed = scenario.simulation.seed;
  engine_options.progress = options.progress;
  engine_options.window_timeout_seconds = options.window_timeout_seconds;
  return engine_options;
}

Session::Session(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
                 PhaseMarker phase)
    : comm_(comm),
      scenario_(scenario),
      options_(options),
      phase_(std::move(phase)),
      start_(std::chrono::steady_clock::now()),
      topology_(marked_topology(phase_, scenario)),
      placement_(place_racks(comm, topology_, scenario, options)) {}

net::PartitionReport Session::partition_report() const {
  return net::partition_report(topology_, placement_.method, placement_.rack_rank, comm_.size(),
                               scenario_.network.fidelity, replica_mirror_of(scenario_));
}

pdes::CheckpointIdentity Session::checkpoint_identity(std::string_view kind) const {
  return {std::string(kind), options_.config_hash,
          pdes::partition_hash(net::lp_rank_map(topology_, placement_.rack_rank, comm_.size()))};
}

void Session::phase(std::string what) const {
  if (phase_) phase_(std::move(what));
}

double Session::setup_seconds() {
  if (!setup_seconds_) {
    const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    setup_seconds_ = boost::mpi::all_reduce(comm_, mine, boost::mpi::maximum<double>());
  }
  return *setup_seconds_;
}

pdes::EngineStats Session::run(Workload& workload, const EngineRun& engine_run) {
  const std::size_t devices = topology_.device_count();
  if (!engine_run.quiet) phase(fmt::format("building the LPs of {} devices and their network", devices));
  pdes::EngineOptions engine_options = engine_options_for(scenario_, options_);
  pdes::Engine engine(comm_, net::lp_rank_map(topology_, placement_.rack_rank, comm_.size()), engine_options);
  net::NetworkContext network(topology_, scenario_.network, workload.mirror());
  net::add_network_lps(engine, network, [&workload](std::uint32_t device) { return workload.make_device(device); });
  engine.set_work_gauge([&workload] { return workload.work(); });

  const bool first = !setup_seconds_.has_value();
  const double setup = setup_seconds();
  if (!engine_run.quiet) {
    if (first)
      spdlog::info("simulating {} devices on {} rank(s) after {:.3f} s of setup", devices, comm_.size(), setup);
    spdlog::debug("{} LPs on this rank", engine.local_lps().size());
    phase(fmt::format("simulating {} devices", devices));
  }

  // The run's state outside its LPs: the rank's port counters, then the workload's.
  const CheckpointOptions& checkpoints = engine_run.checkpoints != nullptr ? *engine_run.checkpoints : options_.checkpoints;
  prepare_checkpoints(comm_, engine, checkpoints,
                      {std::string(workload.kind()), options_.config_hash, pdes::partition_hash(engine.rank_map())},
                      {[&](pdes::CheckpointWriter& out) {
                         out & network.counters;
                         workload.save(out);
                       },
                       [&](pdes::CheckpointReader& in) {
                         in & network.counters;
                         workload.load(in);
                       },
                       engine_run.save_position},
                      engine_run.restart);
  const pdes::EngineStats engine_stats = engine.run(scenario_.simulation.end);
  // A stop's message counts the windows of the whole run and quotes the command line's options, not
  // this engine's share of them.
  pdes::EngineStats run_stats = engine_stats;
  run_stats.windows += engine_run.windows_before;
  throw_if_stopped(run_stats, options_.checkpoints);

  const FinishedRun finished{comm_, topology_, placement_.rack_rank, engine, engine_stats, network.counters};
  pdes::StatisticRegistry registry;
  workload.record(finished, registry);
  workload.finish(finished, registry.reduce(comm_));
  return engine_stats;
}

}  // namespace rackscale::sim
