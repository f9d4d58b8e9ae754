#include "io/network_results.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/results_columns.hpp"
#include "models/traffic/traffic_report.hpp"

namespace rackscale::io {

namespace net = models::network;
using hdf5::Group;

NetworkRows::NetworkRows(const boost::mpi::communicator& comm, const net::Topology& topology,
                         std::span<const std::int32_t> rack_rank)
    : comm_(comm), topology_(topology), rack_rank_(rack_rank), node_owner_(topology.nodes.size()) {
  for (net::NodeId n = 0; n < node_owner_.size(); ++n) node_owner_[n] = rack_rank[topology.nodes[n].rack];
}

OwnedRows NetworkRows::devices() const {
  std::vector<std::int32_t> owner(topology_.device_count());
  for (std::size_t d = 0; d < owner.size(); ++d) owner[d] = node_owner_[topology_.devices[d]];
  return {std::move(owner), comm_.size(), comm_.rank()};
}

namespace {
std::vector<std::string> names(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

// One row per rank: every rank writes its own.
OwnedRows per_rank_rows(const boost::mpi::communicator& comm) {
  std::vector<std::int32_t> ranks(static_cast<std::size_t>(comm.size()));
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r] = static_cast<std::int32_t>(r);
  return {std::move(ranks), comm.size(), comm.rank()};
}

OwnedRows rack_rows(const NetworkRows& net) {
  return {std::vector<std::int32_t>(net.rack_rank().begin(), net.rack_rank().end()), net.comm().size(),
          net.comm().rank()};
}
}  // namespace

void write_nodes(Group& root, const NetworkRows& net) {
  const net::Topology& t = net.topology();
  const OwnedRows rows(net.node_owner(), net.comm().size(), net.comm().rank());
  Group g = root.create_group("nodes");
  g.set_attribute("description", "every node of the cluster (devices and switches), indexed by node id");
  const auto node = [&](std::uint64_t n) -> const net::Node& { return t.nodes[n]; };
  write_column(g, "kind", rows, rows.make([&](std::uint64_t n) { return static_cast<std::uint8_t>(node(n).kind); }), "",
               "what the node is: an index into the attribute names", names({"device", "switch"}));
  write_column(g, "role", rows, rows.make([&](std::uint64_t n) { return static_cast<std::uint8_t>(node(n).role); }), "",
               "a switch's place in the network (none for devices): an index into the attribute names",
               names({"none", "scale_up", "leaf", "spine", "core", "router"}));
  write_column(g, "rack", rows, rows.make([&](std::uint64_t n) { return node(n).rack; }), "", "the node's rack");
  write_column(g, "device", rows, rows.make([&](std::uint64_t n) { return node(n).device; }), "",
               "device index of a device; 4294967295 for switches");
  write_column(g, "first_port", rows, rows.make([&](std::uint64_t n) { return node(n).first_port; }), "",
               "the node's ports are the rows [first_port, first_port + port_count) of /links");
  write_column(g, "port_count", rows,
               rows.make([&](std::uint64_t n) { return static_cast<std::uint32_t>(node(n).port_count); }), "",
               "the node's outgoing ports (cable directions)");
}

void write_racks(Group& root, const NetworkRows& net) {
  const net::Topology& t = net.topology();
  const OwnedRows rows = rack_rows(net);
  Group g = root.create_group("racks");
  g.set_attribute("description", "the racks, units of placement on ranks; a rack's nodes are consecutive ids");
  write_column(g, "kind", rows, rows.make([&](std::uint64_t r) { return static_cast<std::uint8_t>(t.racks[r].kind); }),
               "", "an index into the attribute names", names({"compute", "network"}));
  write_column(g, "first_node", rows, rows.make([&](std::uint64_t r) { return t.racks[r].first_node; }), "",
               "the rack's nodes are [first_node, first_node + node_count)");
  write_column(g, "node_count", rows, rows.make([&](std::uint64_t r) { return t.racks[r].node_count; }), "",
               "nodes in the rack");
}

void write_links(Group& root, const NetworkRows& net, const net::PortCounters& counters, pdes::SimTime span_ps) {
  const net::Topology& t = net.topology();
  const auto& comm = net.comm();
  std::vector<net::NodeId> from(t.ports.size());
  std::vector<std::int32_t> owner(t.ports.size());
  for (net::NodeId n = 0; n < t.nodes.size(); ++n)
    for (std::uint32_t p = t.nodes[n].first_port; p < t.nodes[n].first_port + t.nodes[n].port_count; ++p) {
      from[p] = n;
      owner[p] = net.node_owner()[n];
    }
  const OwnedRows rows(std::move(owner), comm.size(), comm.rank());
  const auto port = [&](std::uint64_t p) -> const net::Port& { return t.ports[p]; };

  // Counts first reduced onto the ports' owners (the analytical fabric records them at the sender).
  const auto bytes = rows.reduce(comm, counters.bytes(), pdes::Reduction::sum);
  const auto busy = rows.reduce(comm, counters.busy(), pdes::Reduction::sum);
  const auto waited = rows.reduce(comm, counters.waited(), pdes::Reduction::sum);
  const auto max_wait = rows.reduce(comm, counters.max_wait(), pdes::Reduction::max);
  const auto chunks = rows.reduce(comm, counters.chunks(), pdes::Reduction::sum);
  // As in the summaries: the fraction of the run the port spent serializing.
  const double span = static_cast<double>(std::max<pdes::SimTime>(span_ps, 1));
  std::vector<double> utilization(busy.size());
  for (std::size_t i = 0; i < busy.size(); ++i) utilization[i] = static_cast<double>(busy[i]) / span;

  std::vector<std::string> classes;
  for (const auto cls : {net::LinkClass::scale_up, net::LinkClass::nic, net::LinkClass::leaf_spine,
                         net::LinkClass::spine_core, net::LinkClass::local, net::LinkClass::global,
                         net::LinkClass::torus}) {
    if (static_cast<std::size_t>(cls) != classes.size()) throw std::logic_error("results: link classes out of order");
    classes.emplace_back(models::traffic::link_class_name(cls));
  }

  Group g = root.create_group("links");
  g.set_attribute("description", "every port, i.e. one direction of a cable, indexed by port id");
  g.set_attribute("makespan_ps", span_ps);
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

void write_partition(Group& root, const NetworkRows& net, const net::PartitionReport& p) {
  Group g = root.create_group("partition");
  g.set_attribute("description", "where the racks ran: depends on the rank count and the method, not a result");
  g.set_attribute("method", p.method);
  g.set_attribute("ranks", static_cast<std::int64_t>(p.ranks));
  g.set_attribute("imbalance", p.imbalance);
  g.set_attribute("cross_rank_cables", p.cross_rank_cables);
  g.set_attribute("cut_bandwidth_Bps", p.cut_bandwidth);
  g.set_attribute("lookahead_ps", p.lookahead);

  const OwnedRows racks = rack_rows(net);
  write_column(g, "rack_rank", racks, racks.pick(net.rack_rank()), "", "the rank each rack (row of /racks) ran on");

  const OwnedRows rows = per_rank_rows(net.comm());
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

void write_engine(Group& root, const pdes::Engine& engine, const pdes::EngineStats& s) {
  const OwnedRows rows = per_rank_rows(root.comm());
  Group g = root.create_group("engine");
  g.set_attribute("description", "the PDES engine's statistics, one row per rank: not a result");
  g.set_attribute("queue", std::string(engine.queue_name()));
  g.set_attribute("sync", std::string(engine.sync_name()));
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

void write_cluster_groups(Group& root, const NetworkRows& net, const net::PortCounters& counters, pdes::SimTime span_ps,
                          const net::PartitionReport& partition, const pdes::Engine& engine,
                          const pdes::EngineStats& stats) {
  write_nodes(root, net);
  write_racks(root, net);
  write_links(root, net, counters, span_ps);
  write_partition(root, net, partition);
  write_engine(root, engine, stats);
}

}  // namespace rackscale::io
