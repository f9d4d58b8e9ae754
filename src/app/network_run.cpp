#include "app/network_run.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <spdlog/spdlog.h>

#include "models/network/build_topology.hpp"
#include "app/memory_phase.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/rack_graph.hpp"
#include "models/traffic/traffic_device.hpp"
#include "partition/partitioner.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::app {

namespace net = models::network;
using models::traffic::BusyPort;
using models::traffic::LinkClassLoad;
using models::traffic::PortTotals;
using models::traffic::TrafficReport;

namespace {
std::uint64_t sum(const boost::mpi::communicator& comm, std::uint64_t value) {
  return boost::mpi::all_reduce(comm, value, std::plus<std::uint64_t>());
}

PortTotals reduce_ports(const boost::mpi::communicator& comm, const net::PortCounters& mine) {
  PortTotals totals;
  const bool root = comm.rank() == 0;
  const auto reduce = [&](const std::vector<std::uint64_t>& in, std::vector<std::uint64_t>& out, pdes::Reduction op) {
    if (root) out.assign(in.size(), 0);
    pdes::reduce_to_root(comm, in, out, op);
  };
  reduce(mine.bytes(), totals.bytes, pdes::Reduction::sum);
  reduce(mine.busy(), totals.busy, pdes::Reduction::sum);
  reduce(mine.waited(), totals.waited, pdes::Reduction::sum);
  reduce(mine.max_wait(), totals.max_wait, pdes::Reduction::max);
  reduce(mine.chunks(), totals.chunks, pdes::Reduction::sum);
  return totals;
}

// The sum, over this rank's sending devices, of the bandwidths of the distinct first-hop ports their
// messages leave by: what the senders could inject at line rate.
double injection_bandwidth(const net::Topology& topology, const pdes::Engine& engine,
                           const models::traffic::TrafficPlan& plan) {
  double total = 0;
  for (std::uint32_t d = 0; d < topology.device_count(); ++d) {
    const net::NodeId node = topology.devices[d];
    if (!engine.is_local(node)) continue;
    std::set<net::PortIndex> first_hops;
    std::uint64_t flow = 0;
    for (const auto& m : plan.messages_from(d)) {
      const net::NodeId dst = topology.devices[m.dst];
      if (dst == node) continue;
      net::RouteTag tag = topology.router->start(node, dst, (static_cast<std::uint64_t>(d) << 32) | flow++, 0);
      first_hops.insert(topology.router->next_port(node, dst, tag));
    }
    for (const net::PortIndex p : first_hops) total += topology.port(node, p).bandwidth;
  }
  return total;
}
}  // namespace

RackPlacement place_racks(const boost::mpi::communicator& comm, const net::Topology& topology,
                          const models::Scenario& scenario, const RunOptions& options) {
  RackPlacement placement{options.partition.empty() ? scenario.simulation.partition : options.partition, {}};
  (void)partition::make_partitioner(placement.method);
  if (comm.rank() == 0) placement.rack_rank = net::partition_racks(topology, placement.method, comm.size());
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

TrafficReport run_traffic(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                          const RunOptions& options) {
  const auto setup_start = std::chrono::steady_clock::now();
  MemoryPhase phase("building the topology");
  const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  phase.set(fmt::format("building the LPs of {} devices and their network", topology.device_count()));
  const auto [method, rack_rank] = place_racks(comm, topology, scenario, options);
  pdes::Engine engine(comm, net::lp_rank_map(topology, rack_rank, comm.size()), engine_options_for(scenario, options));

  const models::traffic::TrafficPlan plan(scenario.workload.traffic, static_cast<std::uint32_t>(topology.device_count()),
                                          scenario.simulation.seed);
  net::NetworkContext network(topology, scenario.network);
  models::traffic::TrafficStats stats;
  net::add_network_lps(engine, network, [&](std::uint32_t) {
    return std::make_unique<models::traffic::TrafficDevice>(plan, stats);
  });
  // Messages delivered on this rank; the planned total counted once, on rank 0, since ranks' figures add.
  engine.set_work_gauge([&stats, &plan, rank = comm.rank()] {
    return pdes::WorkDone{stats.completion.count(), rank == 0 ? plan.total_messages() : 0};
  });

  TrafficReport report;
  report.topology = topology.description;
  report.devices = topology.device_count();
  report.switches = topology.switch_count();
  report.cables = topology.link_count();
  report.racks = topology.racks.size();
  report.partition = net::partition_report(topology, method, rack_rank, comm.size());
  report.messages_planned = plan.total_messages();

  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  report.setup_seconds = boost::mpi::all_reduce(comm, setup, boost::mpi::maximum<double>());
  spdlog::info("simulating {} devices on {} rank(s) after {:.3f} s of setup", report.devices, comm.size(),
               report.setup_seconds);
  spdlog::debug("{} LPs on this rank", engine.local_lps().size());
  phase.set(fmt::format("simulating {} devices", report.devices));
  // A traffic run's state outside its LPs: the rank's port counters and delivery figures.
  prepare_checkpoints(comm, engine, options.checkpoints,
                      {"traffic", options.config_hash, pdes::partition_hash(engine.rank_map())},
                      {[&](pdes::CheckpointWriter& out) { out & network.counters & stats; },
                       [&](pdes::CheckpointReader& in) { in & network.counters & stats; },
                       nullptr});
  const pdes::EngineStats engine_stats = engine.run(scenario.simulation.end);
  throw_if_stopped(engine_stats, options.checkpoints);

  // Integer figures first: they add up exactly whatever the placement.
  const auto& h = stats.completion;
  report.messages_delivered = sum(comm, h.count());
  report.bytes_delivered = sum(comm, stats.bytes_delivered);
  report.makespan = pdes::max_over_ranks(comm, stats.last_delivery);
  report.completion_min = pdes::min_over_ranks(comm, h.count() ? h.min() : pdes::kNever);
  report.completion_max = pdes::max_over_ranks(comm, h.max());
  report.completion_sum = sum(comm, h.sum());
  std::vector<std::uint64_t> buckets(h.counts().size(), 0);
  pdes::reduce_to_all(comm, h.counts(), buckets, pdes::Reduction::sum);
  report.injection_bandwidth = boost::mpi::all_reduce(comm, injection_bandwidth(topology, engine, plan), std::plus<double>());
  if (report.messages_delivered > 0) {
    report.completion_mean = static_cast<double>(report.completion_sum) / static_cast<double>(report.messages_delivered);
    if (report.makespan > 0)
      report.aggregate_throughput = static_cast<double>(report.bytes_delivered) / pdes::to_seconds(report.makespan);
    if (report.injection_bandwidth > 0) report.line_rate_fraction = report.aggregate_throughput / report.injection_bandwidth;
  }

  models::statistics::LogHistogram merged;
  merged.counts() = buckets;
  merged.raw_count() = report.messages_delivered;
  merged.raw_min() = report.completion_min;
  merged.raw_max() = report.completion_max;
  report.completion_p50 = merged.quantile(0.5);
  report.completion_p99 = merged.quantile(0.99);

  report.per_port = reduce_ports(comm, network.counters);
  report.engine = pdes::gather_stats(comm, engine_stats);
  if (options.on_finished)
    options.on_finished({topology, rack_rank, engine, engine_stats, network.counters, stats, report});
  if (comm.rank() != 0) return report;

  // Utilization is busy time over the makespan: the fraction of the run a port was serializing.
  const double span = static_cast<double>(std::max<pdes::SimTime>(report.makespan, 1));
  std::map<net::LinkClass, LinkClassLoad> classes;
  std::vector<BusyPort> ports;
  for (net::NodeId node = 0; node < topology.nodes.size(); ++node) {
    for (net::PortIndex i = 0; i < topology.nodes[node].port_count; ++i) {
      const std::uint32_t id = topology.port_id(node, i);
      const net::Port& port = topology.ports[id];
      const double utilization = static_cast<double>(report.per_port.busy[id]) / span;
      LinkClassLoad& c = classes[port.link_class];
      c.link_class = port.link_class;
      ++c.ports;
      c.bytes += report.per_port.bytes[id];
      c.mean_utilization += utilization;
      c.max_utilization = std::max(c.max_utilization, utilization);
      c.max_wait = std::max(c.max_wait, report.per_port.max_wait[id]);
      if (report.per_port.bytes[id] > 0)
        ports.push_back({id, node, port.peer, port.link_class, report.per_port.bytes[id], utilization,
                         report.per_port.max_wait[id]});
    }
  }
  for (auto& [cls, c] : classes) {
    c.mean_utilization /= static_cast<double>(c.ports);
    report.by_link_class.push_back(c);
  }
  const std::size_t top = std::min<std::size_t>(10, ports.size());
  std::partial_sort(ports.begin(), ports.begin() + static_cast<std::ptrdiff_t>(top), ports.end(),
                    [](const BusyPort& a, const BusyPort& b) {
                      return a.utilization != b.utilization ? a.utilization > b.utilization : a.port < b.port;
                    });
  ports.resize(top);
  report.busiest = std::move(ports);
  return report;
}

}  // namespace rackscale::app
