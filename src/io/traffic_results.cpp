#include "io/traffic_results.hpp"

#include <algorithm>
#include <ctime>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include "io/owned_rows.hpp"
#include "models/network/device_lp.hpp"
#include "models/statistics/log_histogram.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::io {

namespace net = models::network;
namespace traffic = models::traffic;
using hdf5::Group;

namespace {

// Creates `name` with one row per row of `rows`, writes this rank's `mine` (in row order) and labels it.
template <class T>
void write_column(Group& group, std::string_view name, const OwnedRows& rows, const std::vector<T>& mine,
                  std::string_view units, std::string_view description) {
  hdf5::Dataset dataset = group.create_dataset<T>(name, rows.rows());
  dataset.write_rows(rows.mine(), std::span<const T>(mine));
  if (!units.empty()) dataset.set_attribute("units", units);
  dataset.set_attribute("description", description);
}

template <class T>
void write_column(Group& group, std::string_view name, const OwnedRows& rows, const std::vector<T>& mine,
                  std::string_view units, std::string_view description, const std::vector<std::string>& names) {
  hdf5::Dataset dataset = group.create_dataset<T>(name, rows.rows());
  dataset.write_rows(rows.mine(), std::span<const T>(mine));
  if (!units.empty()) dataset.set_attribute("units", units);
  dataset.set_attribute("description", description);
  dataset.set_attribute("names", std::span<const std::string>(names));
}

const char* fidelity_name(net::Fidelity fidelity) {
  return fidelity == net::Fidelity::chunk ? "chunk" : "analytical";
}

std::string utc_now() { return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr))); }

// The rank that owns each node: the rank of its rack.
std::vector<std::int32_t> node_owners(const traffic::TrafficRunState& run) {
  std::vector<std::int32_t> owner(run.topology.nodes.size());
  for (net::NodeId n = 0; n < owner.size(); ++n) owner[n] = run.rack_rank[run.topology.nodes[n].rack];
  return owner;
}

struct Context {
  const boost::mpi::communicator& comm;
  const models::Scenario& scenario;
  const traffic::TrafficRunState& run;
  std::vector<std::int32_t> node_owner;
};

void write_root(hdf5::File& file, const Context& c, const ProgramInfo& program) {
  const auto& stats = c.run.engine_stats;
  const std::uint64_t events = boost::mpi::all_reduce(c.comm, stats.events_processed, std::plus<std::uint64_t>());
  const double wall = boost::mpi::all_reduce(c.comm, stats.wall_seconds, boost::mpi::maximum<double>());
  file.set_attribute("format", "rackscale results");
  file.set_attribute("format_version", kResultsFormatVersion);
  file.set_attribute("program_version", program.version);
  file.set_attribute("git_revision", program.git_revision);
  file.set_attribute("workload", "traffic");
  file.set_attribute("scenario", c.scenario.name);
  file.set_attribute("description", c.scenario.description);
  file.set_attribute("config", c.scenario.resolved_yaml);
  file.set_attribute("config_file", c.scenario.source_file);
  file.set_attribute("topology", c.run.report.topology);
  file.set_attribute("network_fidelity", fidelity_name(c.scenario.network.fidelity));
  file.set_attribute("seed", c.scenario.simulation.seed);
  file.set_attribute("ranks", static_cast<std::int64_t>(c.comm.size()));
  file.set_attribute("partition_method", c.run.report.partition.method);
  file.set_attribute("created", utc_now());
  file.set_attribute("setup_s", c.run.report.setup_seconds);
  file.set_attribute("wall_s", wall);
  file.set_attribute("events", events);
  file.set_attribute("events_per_s", wall > 0 ? static_cast<double>(events) / wall : 0.0);
  file.set_attribute("windows", stats.windows);
  file.set_attribute("lookahead_ps", c.run.engine.lookahead());
  file.set_attribute("final_time_ps", stats.final_time);
}

void write_nodes(Group& root, const Context& c) {
  const net::Topology& t = c.run.topology;
  const OwnedRows rows(c.node_owner, c.comm.size(), c.comm.rank());
  Group g = root.create_group("nodes");
  g.set_attribute("description", "every node of the cluster (devices and switches), indexed by node id");
  const auto node = [&](std::uint64_t n) -> const net::Node& { return t.nodes[n]; };
  write_column(g, "kind", rows, rows.make([&](std::uint64_t n) { return static_cast<std::uint8_t>(node(n).kind); }), "",
               "what the node is: an index into the attribute names", {"device", "switch"});
  write_column(g, "role", rows, rows.make([&](std::uint64_t n) { return static_cast<std::uint8_t>(node(n).role); }), "",
               "a switch's place in the network (none for devices): an index into the attribute names",
               {"none", "scale_up", "leaf", "spine", "core", "router"});
  write_column(g, "rack", rows, rows.make([&](std::uint64_t n) { return node(n).rack; }), "", "the node's rack");
  write_column(g, "device", rows, rows.make([&](std::uint64_t n) { return node(n).device; }), "",
               "device index of a device; 4294967295 for switches");
  write_column(g, "first_port", rows, rows.make([&](std::uint64_t n) { return node(n).first_port; }), "",
               "the node's ports are the rows [first_port, first_port + port_count) of /links");
  write_column(g, "port_count", rows,
               rows.make([&](std::uint64_t n) { return static_cast<std::uint32_t>(node(n).port_count); }), "",
               "the node's outgoing ports (cable directions)");
}

void write_racks(Group& root, const Context& c) {
  const net::Topology& t = c.run.topology;
  const OwnedRows rows(std::vector<std::int32_t>(c.run.rack_rank.begin(), c.run.rack_rank.end()), c.comm.size(),
                       c.comm.rank());
  Group g = root.create_group("racks");
  g.set_attribute("description", "the racks, units of placement on ranks; a rack's nodes are consecutive ids");
  write_column(g, "kind", rows, rows.make([&](std::uint64_t r) { return static_cast<std::uint8_t>(t.racks[r].kind); }),
               "", "an index into the attribute names", {"compute", "network"});
  write_column(g, "first_node", rows, rows.make([&](std::uint64_t r) { return t.racks[r].first_node; }), "",
               "the rack's nodes are [first_node, first_node + node_count)");
  write_column(g, "node_count", rows, rows.make([&](std::uint64_t r) { return t.racks[r].node_count; }), "",
               "nodes in the rack");
}

void write_devices(Group& root, const Context& c) {
  const net::Topology& t = c.run.topology;
  std::vector<std::int32_t> owner(t.device_count());
  for (std::size_t d = 0; d < owner.size(); ++d) owner[d] = c.node_owner[t.devices[d]];
  const OwnedRows rows(std::move(owner), c.comm.size(), c.comm.rank());

  // This rank's traffic devices, by device index.
  std::vector<const traffic::TrafficDevice::Counts*> counts(t.device_count(), nullptr);
  for (const auto& lp : c.run.engine.local_lps()) {
    auto* device = dynamic_cast<net::DeviceLp*>(lp.get());
    if (device == nullptr) continue;
    const auto* behaviour = dynamic_cast<const traffic::TrafficDevice*>(&device->behaviour());
    if (behaviour == nullptr) throw std::logic_error("traffic results: a device without a traffic behaviour");
    counts[device->device()] = &behaviour->counts();
  }
  const auto of = [&](std::uint64_t d) -> const traffic::TrafficDevice::Counts& {
    if (counts[d] == nullptr) throw std::logic_error(fmt::format("traffic results: device {} is not on this rank", d));
    return *counts[d];
  };

  Group g = root.create_group("devices");
  g.set_attribute("description", "every device (accelerator), indexed by device index");
  write_column(g, "node", rows, rows.make([&](std::uint64_t d) { return t.devices[d]; }), "",
               "the device's node id (row of /nodes)");
  write_column(g, "messages_sent", rows, rows.make([&](std::uint64_t d) { return of(d).messages_sent; }), "messages",
               "messages the device posted");
  write_column(g, "bytes_sent", rows, rows.make([&](std::uint64_t d) { return of(d).bytes_sent; }), "bytes",
               "bytes of the messages the device posted");
  write_column(g, "messages_received", rows, rows.make([&](std::uint64_t d) { return of(d).messages_received; }),
               "messages", "messages delivered to the device (last byte arrived)");
  write_column(g, "bytes_received", rows, rows.make([&](std::uint64_t d) { return of(d).bytes_received; }), "bytes",
               "bytes of the messages delivered to the device");
}

void write_links(Group& root, const Context& c) {
  const net::Topology& t = c.run.topology;
  const net::PortCounters& counters = c.run.counters;
  std::vector<net::NodeId> from(t.ports.size());
  std::vector<std::int32_t> owner(t.ports.size());
  for (net::NodeId n = 0; n < t.nodes.size(); ++n)
    for (std::uint32_t p = t.nodes[n].first_port; p < t.nodes[n].first_port + t.nodes[n].port_count; ++p) {
      from[p] = n;
      owner[p] = c.node_owner[n];
    }
  const OwnedRows rows(std::move(owner), c.comm.size(), c.comm.rank());
  const auto port = [&](std::uint64_t p) -> const net::Port& { return t.ports[p]; };

  // Counts first reduced onto the ports' owners (the analytical fabric records them at the sender).
  const auto bytes = rows.reduce(c.comm, counters.bytes, pdes::Reduction::sum);
  const auto busy = rows.reduce(c.comm, counters.busy, pdes::Reduction::sum);
  const auto waited = rows.reduce(c.comm, counters.waited, pdes::Reduction::sum);
  const auto max_wait = rows.reduce(c.comm, counters.max_wait, pdes::Reduction::max);
  const auto chunks = rows.reduce(c.comm, counters.chunks, pdes::Reduction::sum);
  // As in the summary: the fraction of the run (makespan) the port spent serializing.
  const double span = static_cast<double>(std::max<pdes::SimTime>(c.run.report.makespan, 1));
  std::vector<double> utilization(busy.size());
  for (std::size_t i = 0; i < busy.size(); ++i) utilization[i] = static_cast<double>(busy[i]) / span;

  std::vector<std::string> classes;
  for (const auto cls : {net::LinkClass::scale_up, net::LinkClass::nic, net::LinkClass::leaf_spine,
                         net::LinkClass::spine_core, net::LinkClass::local, net::LinkClass::global,
                         net::LinkClass::torus}) {
    if (static_cast<std::size_t>(cls) != classes.size()) throw std::logic_error("traffic results: link classes out of order");
    classes.emplace_back(traffic::link_class_name(cls));
  }

  Group g = root.create_group("links");
  g.set_attribute("description", "every port, i.e. one direction of a cable, indexed by port id");
  g.set_attribute("makespan_ps", c.run.report.makespan);
  write_column(g, "from_node", rows, rows.make([&](std::uint64_t p) { return from[p]; }), "",
               "the node the port belongs to (sends from)");
  write_column(g, "to_node", rows, rows.make([&](std::uint64_t p) { return port(p).peer; }), "",
               "the node at the other end of the cable");
  write_column(g, "reverse", rows,
               rows.make([&](std::uint64_t p) { return t.port_id(port(p).peer, port(p).peer_port); }), "",
               "port id of the cable's other direction");
  write_column(g, "link_class", rows,
               rows.make([&](std::uint64_t p) { return static_cast<std::uint8_t>(port(p).link_class); }), "",
               "what the cable is: an index into the attribute names", classes);
  write_column(g, "bandwidth_Bps", rows, rows.make([&](std::uint64_t p) { return port(p).bandwidth; }), "bytes/s",
               "bandwidth of this direction");
  write_column(g, "latency_ps", rows, rows.make([&](std::uint64_t p) { return port(p).latency; }), "ps",
               "from the last bit leaving the port to the chunk being ready to leave the peer");
  write_column(g, "bytes", rows, bytes, "bytes", "bytes sent through the port");
  write_column(g, "busy_ps", rows, busy, "ps", "time spent serializing");
  write_column(g, "utilization", rows, utilization, "1",
               "busy_ps / makespan_ps (analytical fidelity: offered load, may exceed 1)");
  write_column(g, "queueing_sum_ps", rows, waited, "ps", "queueing delay before the serializer, summed over chunks");
  write_column(g, "queueing_max_ps", rows, max_wait, "ps", "longest queueing delay of one chunk");
  write_column(g, "chunks", rows, chunks, "chunks", "chunks sent (analytical fidelity: messages)");
}

void write_traffic(Group& root, const Context& c) {
  const traffic::TrafficReport& r = c.run.report;
  const auto& h = c.run.stats.completion;
  std::vector<std::uint64_t> buckets(h.counts().size(), 0);
  pdes::reduce_to_all(c.comm, h.counts(), buckets, pdes::Reduction::sum);
  const std::uint64_t completion_sum = boost::mpi::all_reduce(c.comm, h.sum(), std::plus<std::uint64_t>());

  Group g = root.create_group("traffic");
  g.set_attribute("description", "the traffic workload's figures over the whole cluster");
  g.set_attribute("messages_planned", r.messages_planned);
  g.set_attribute("messages_delivered", r.messages_delivered);
  g.set_attribute("bytes_delivered", r.bytes_delivered);
  g.set_attribute("makespan_ps", r.makespan);
  g.set_attribute("aggregate_throughput_Bps", r.aggregate_throughput);
  g.set_attribute("injection_bandwidth_Bps", r.injection_bandwidth);
  g.set_attribute("line_rate_fraction", r.line_rate_fraction);
  g.set_attribute("completion_min_ps", r.completion_min);
  g.set_attribute("completion_mean_ps", r.completion_mean);
  g.set_attribute("completion_p50_ps", r.completion_p50);
  g.set_attribute("completion_p99_ps", r.completion_p99);
  g.set_attribute("completion_max_ps", r.completion_max);
  g.set_attribute("completion_sum_ps", completion_sum);

  // The histogram's non-empty buckets, written by rank 0 (every rank has the reduced counts).
  using Histogram = models::statistics::LogHistogram;
  std::vector<std::uint64_t> low, high, count;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    if (buckets[b] == 0) continue;
    low.push_back(Histogram::bucket_low(b));
    high.push_back(b + 1 < buckets.size() ? Histogram::bucket_low(b + 1) - 1 : std::numeric_limits<std::uint64_t>::max());
    count.push_back(buckets[b]);
  }
  std::vector<std::int32_t> owner(low.size(), 0);
  const OwnedRows rows(std::move(owner), c.comm.size(), c.comm.rank());
  const auto rank0 = [&](const std::vector<std::uint64_t>& v) {
    return c.comm.rank() == 0 ? v : std::vector<std::uint64_t>{};
  };
  write_column(g, "completion_histogram_low_ps", rows, rank0(low), "ps",
               "lowest completion time of the bucket (non-empty buckets only, in increasing order)");
  write_column(g, "completion_histogram_high_ps", rows, rank0(high), "ps", "highest completion time of the bucket");
  write_column(g, "completion_histogram_count", rows, rank0(count), "messages",
               "messages whose completion time falls in the bucket");
}

void write_partition(Group& root, const Context& c) {
  const net::PartitionReport& p = c.run.report.partition;
  Group g = root.create_group("partition");
  g.set_attribute("description", "where the racks ran: depends on the rank count and the method, not a result");
  g.set_attribute("method", p.method);
  g.set_attribute("ranks", static_cast<std::int64_t>(p.ranks));
  g.set_attribute("imbalance", p.imbalance);
  g.set_attribute("cross_rank_cables", p.cross_rank_cables);
  g.set_attribute("cut_bandwidth_Bps", p.cut_bandwidth);
  g.set_attribute("lookahead_ps", p.lookahead);

  const OwnedRows racks(std::vector<std::int32_t>(c.run.rack_rank.begin(), c.run.rack_rank.end()), c.comm.size(),
                        c.comm.rank());
  write_column(g, "rack_rank", racks, racks.pick(c.run.rack_rank), "", "the rank each rack (row of /racks) ran on");

  std::vector<std::int32_t> ranks(static_cast<std::size_t>(c.comm.size()));
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r] = static_cast<std::int32_t>(r);
  const OwnedRows rows(std::move(ranks), c.comm.size(), c.comm.rank());
  const auto& load = p.per_rank;
  write_column(g, "racks", rows, rows.make([&](std::uint64_t r) { return std::uint64_t{load[r].racks}; }), "racks",
               "racks on the rank");
  write_column(g, "lps", rows, rows.make([&](std::uint64_t r) { return load[r].lps; }), "LPs", "nodes on the rank");
  write_column(g, "devices", rows, rows.make([&](std::uint64_t r) { return load[r].devices; }), "devices",
               "devices on the rank");
  write_column(g, "switches", rows, rows.make([&](std::uint64_t r) { return load[r].switches; }), "switches",
               "switches on the rank");
  write_column(g, "cut_cables", rows, rows.make([&](std::uint64_t r) { return load[r].cut_cables; }), "cables",
               "cables with one end on the rank and the other elsewhere");
  write_column(g, "cut_bandwidth_Bps", rows, rows.make([&](std::uint64_t r) { return load[r].cut_bandwidth; }),
               "bytes/s", "bandwidth of those cables, one direction each");
}

void write_engine(Group& root, const Context& c) {
  const pdes::EngineStats& s = c.run.engine_stats;
  std::vector<std::int32_t> ranks(static_cast<std::size_t>(c.comm.size()));
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r] = static_cast<std::int32_t>(r);
  const OwnedRows rows(std::move(ranks), c.comm.size(), c.comm.rank());

  Group g = root.create_group("engine");
  g.set_attribute("description", "the PDES engine's statistics, one row per rank: not a result");
  g.set_attribute("queue", std::string(c.run.engine.queue_name()));
  g.set_attribute("sync", std::string(c.run.engine.sync_name()));
  const auto one = [](auto value) { return std::vector<decltype(value)>{value}; };
  write_column(g, "lps", rows, one(s.lps), "LPs", "LPs owned by the rank");
  write_column(g, "events", rows, one(s.events_processed), "events", "events handled by the rank's LPs");
  write_column(g, "remote_sent", rows, one(s.remote_sent), "events", "events sent to LPs on other ranks");
  write_column(g, "remote_received", rows, one(s.remote_received), "events", "events received from other ranks");
  write_column(g, "windows", rows, one(s.windows), "windows", "synchronization windows");
  write_column(g, "process_s", rows, one(s.process_seconds), "s", "wall time handling events");
  write_column(g, "sync_s", rows, one(s.sync_seconds), "s", "wall time in window exchanges, waiting included");
  write_column(g, "wall_s", rows, one(s.wall_seconds), "s", "wall time of the run (LP init, windows, LP finish)");
  write_column(g, "peak_memory_bytes", rows, one(s.peak_memory_bytes), "bytes", "the process's peak resident set size");
}

}  // namespace

void write_traffic_results(hdf5::File& file, const models::Scenario& scenario, const traffic::TrafficRunState& run,
                           const ProgramInfo& program) {
  const Context c{file.comm(), scenario, run, node_owners(run)};
  write_root(file, c, program);
  write_nodes(file, c);
  write_racks(file, c);
  write_devices(file, c);
  write_links(file, c);
  write_traffic(file, c);
  write_partition(file, c);
  write_engine(file, c);
}

}  // namespace rackscale::io
