#include "sim/traffic_workload.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <boost/mpi/collectives/all_reduce.hpp>

#include "pdes/rank_reduce.hpp"

namespace rackscale::sim {

namespace net = models::network;
using models::traffic::BusyPort;
using models::traffic::LinkClassLoad;
using models::traffic::PortTotals;

namespace {
// Per-port figures, summed (the maximum wait: maximized) on rank 0 only: nothing else needs them.
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

// Rank 0: utilization is busy time over the makespan, the fraction of the run a port was serializing.
void summarize_ports(const net::Topology& topology, models::traffic::TrafficReport& report) {
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
}
}  // namespace

TrafficWorkload::TrafficWorkload(Session& session, TrafficObserver on_finished)
    : session_(session),
      on_finished_(std::move(on_finished)),
      plan_(session.scenario().workload.traffic, static_cast<std::uint32_t>(session.topology().device_count()),
            session.scenario().simulation.seed) {
  session.fill_header(report_);
  report_.messages_planned = plan_.total_messages();
}

std::unique_ptr<net::DeviceBehaviour> TrafficWorkload::make_device(std::uint32_t /*device*/) {
  return std::make_unique<models::traffic::TrafficDevice>(plan_, stats_);
}

pdes::WorkDone TrafficWorkload::work() const {
  return {stats_.completion.count(), session_.comm().rank() == 0 ? plan_.total_messages() : 0};
}

void TrafficWorkload::record(const FinishedRun& /*run*/, pdes::StatisticRegistry& registry) {
  const auto& h = stats_.completion;
  registry.histogram("completion_ps", "ps", "delivered messages' completion times, send to delivery")
      .merge_samples(h.counts(), h.count(), h.sum(), h.min(), h.max());
  registry.values("bytes_delivered", "bytes", "bytes of the delivered messages", pdes::Combine::sum)
      .record(stats_.bytes_delivered);
  registry.values("last_delivery_ps", "ps", "when the last message was delivered", pdes::Combine::max)
      .record(stats_.last_delivery);
}

void TrafficWorkload::finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) {
  const boost::mpi::communicator& comm = run.comm;
  report_.setup_seconds = session_.setup_seconds();
  report_.statistics = figures;
  const auto& completion = figures["completion_ps"];
  report_.messages_delivered = completion.sample_count();
  report_.bytes_delivered = figures["bytes_delivered"].values[0];
  report_.makespan = figures["last_delivery_ps"].values[0];
  report_.completion_min = completion.sample_count() > 0 ? completion.sample_min() : pdes::kNever;
  report_.completion_max = completion.sample_max();
  report_.completion_sum = completion.sample_sum();
  report_.completion_p50 = completion.quantile(0.5);
  report_.completion_p99 = completion.quantile(0.99);
  report_.injection_bandwidth =
      boost::mpi::all_reduce(comm, injection_bandwidth(run.topology, run.engine, plan_), std::plus<double>());
  if (report_.messages_delivered > 0) {
    report_.completion_mean = static_cast<double>(report_.completion_sum) / static_cast<double>(report_.messages_delivered);
    if (report_.makespan > 0)
      report_.aggregate_throughput = static_cast<double>(report_.bytes_delivered) / pdes::to_seconds(report_.makespan);
    if (report_.injection_bandwidth > 0) report_.line_rate_fraction = report_.aggregate_throughput / report_.injection_bandwidth;
  }

  report_.per_port = reduce_ports(comm, run.counters);
  report_.engine = pdes::gather_stats(comm, run.engine_stats);
  if (on_finished_)
    on_finished_({run.topology, run.rack_rank, run.engine, run.engine_stats, run.counters, stats_, report_});
  if (comm.rank() == 0) summarize_ports(run.topology, report_);
}

}  // namespace rackscale::sim
