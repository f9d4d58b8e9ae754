// `rackscale run --output` through the app layer under mpirun with 1, 2 and 4 ranks: the traffic
// results file holds what the run's report says (per-link bytes add up to bytes x hops, devices to
// the delivered totals), carries its metadata, and its results datasets are byte for byte those of a
// sequential run, for every partition method and both network fidelities. A run whose file cannot be
// written fails on every rank and leaves nothing behind.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/network_run.hpp"
#include "app/results_output.hpp"
#include "app/traffic_output.hpp"
#include "app/version.hpp"
#include "h5_reader.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/traffic_results.hpp"
#include "models/network/build_topology.hpp"
#include "models/traffic/traffic_plan.hpp"
#include "scratch_dir.hpp"

namespace {
namespace app = rackscale::app;
namespace net = rackscale::models::network;
namespace fs = std::filesystem;
using rackscale::test::H5Reader;
using rackscale::test::ScratchDir;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::Scenario scenario(const std::string& fidelity) {
  return rackscale::io::load_scenario(std::string(RACKSCALE_EXAMPLE_CONFIGS) + "/fat-tree-128.yaml",
                                      {"network.fidelity=" + fidelity, "workload.bytes=256KiB"});
}

rackscale::models::traffic::TrafficReport run(const boost::mpi::communicator& comm,
                                              const rackscale::models::Scenario& s, const std::string& path,
                                              const std::string& method = "block", bool force = false) {
  app::RunOptions options;
  options.partition = method;
  const std::string refused = app::prepare_traffic_output(comm, s, {path, force}, options);
  EXPECT_EQ(refused, "");
  return app::run_traffic(comm, s, options);
}

template <class T>
T total(const std::vector<T>& v) {
  return std::accumulate(v.begin(), v.end(), T{});
}

}  // namespace

TEST(TrafficOutput, TheFileHoldsTheRunsFigures) {
  const auto comm = world();
  const ScratchDir dir(comm, "traffic-figures");
  for (const std::string fidelity : {"analytical", "chunk"}) {
    SCOPED_TRACE(fidelity);
    const auto s = scenario(fidelity);
    const std::string path = dir / (fidelity + ".h5");
    const auto report = run(comm, s, path);
    ASSERT_TRUE(fs::exists(path));
    if (comm.rank() != 0) continue;
    const H5Reader in(path);

    // Metadata.
    EXPECT_EQ(in.attribute<std::int64_t>("/", "format_version"), rackscale::io::kResultsFormatVersion);
    EXPECT_EQ(in.string_attribute("/", "program_version"), app::kVersion);
    EXPECT_EQ(in.string_attribute("/", "git_revision"), app::kGitRevision);
    EXPECT_EQ(in.string_attribute("/", "scenario"), "fat-tree-128");
    EXPECT_EQ(in.string_attribute("/", "config"), s.resolved_yaml);
    EXPECT_EQ(in.string_attribute("/", "network_fidelity"), fidelity);
    EXPECT_EQ(in.string_attribute("/", "partition_method"), "block");
    EXPECT_EQ(in.attribute<std::int64_t>("/", "ranks"), comm.size());
    EXPECT_EQ(in.attribute<std::uint64_t>("/", "seed"), s.simulation.seed);
    EXPECT_GT(in.attribute<std::uint64_t>("/", "events"), 0u);
    for (const std::string name : {"created", "wall_s", "setup_s", "events_per_s", "windows", "lookahead_ps",
                                   "final_time_ps", "topology", "description", "config_file", "workload", "format"})
      EXPECT_TRUE(in.has_attribute("/", name)) << name;

    // Devices: every message sent and delivered once.
    const net::Topology topology = net::build_topology(s.cluster, s.network.routing);
    const auto devices = topology.device_count();
    EXPECT_EQ(in.read<std::uint32_t>("/devices/node"), topology.devices);
    const auto bytes_sent = in.read<std::uint64_t>("/devices/bytes_sent");
    ASSERT_EQ(bytes_sent.size(), devices);
    EXPECT_EQ(total(in.read<std::uint64_t>("/devices/messages_sent")), report.messages_planned);
    EXPECT_EQ(total(in.read<std::uint64_t>("/devices/messages_received")), report.messages_delivered);
    EXPECT_EQ(total(bytes_sent), report.bytes_delivered);
    EXPECT_EQ(total(in.read<std::uint64_t>("/devices/bytes_received")), report.bytes_delivered);

    // Links: replay every message's route. Per port the analytical fabric puts the message exactly
    // there; with spraying the chunk fabric picks among equal-length paths, so there the totals and
    // each device's first hops must agree.
    const rackscale::models::traffic::TrafficPlan plan(s.workload.traffic, static_cast<std::uint32_t>(devices),
                                                       s.simulation.seed);
    std::vector<std::uint64_t> expected(topology.ports.size(), 0);
    std::uint64_t bytes_times_hops = 0;
    for (std::uint32_t d = 0; d < devices; ++d) {
      std::uint64_t sequence = 0;
      for (const auto& m : plan.messages_from(d)) {
        const net::NodeId src = topology.devices[d], dst = topology.devices[m.dst];
        auto tag = topology.router->start(src, dst, (std::uint64_t{d} << 32) | sequence++, 0);
        for (net::NodeId at = src; at != dst;) {
          const auto index = topology.router->next_port(at, dst, tag);
          expected[topology.port_id(at, index)] += m.bytes;
          bytes_times_hops += m.bytes;
          at = topology.port(at, index).peer;
        }
      }
    }
    const auto link_bytes = in.read<std::uint64_t>("/links/bytes");
    ASSERT_EQ(link_bytes.size(), topology.ports.size());
    EXPECT_EQ(total(link_bytes), bytes_times_hops);
    if (fidelity == "analytical") {
      EXPECT_EQ(link_bytes, expected);
    }
    for (std::uint32_t d = 0; d < devices; ++d) {
      const net::Node& node = topology.nodes[topology.devices[d]];
      std::uint64_t out = 0;
      for (std::uint32_t p = node.first_port; p < node.first_port + node.port_count; ++p) out += link_bytes[p];
      EXPECT_EQ(out, bytes_sent[d]) << "device " << d;
    }
    const auto from = in.read<std::uint32_t>("/links/from_node");
    const auto to = in.read<std::uint32_t>("/links/to_node");
    const auto classes = in.read<std::uint8_t>("/links/link_class");
    for (std::uint32_t p = 0; p < topology.ports.size(); p += 17) {
      EXPECT_EQ(to[p], topology.ports[p].peer);
      EXPECT_EQ(classes[p], static_cast<std::uint8_t>(topology.ports[p].link_class));
      EXPECT_GE(p, topology.nodes[from[p]].first_port);
    }
    EXPECT_EQ(in.string_attributes("/links/link_class", "names").at(1), "nic");
    const auto utilization = in.read<double>("/links/utilization");
    const auto busy = in.read<std::uint64_t>("/links/busy_ps");
    for (std::size_t p = 0; p < busy.size(); ++p)
      EXPECT_EQ(utilization[p], static_cast<double>(busy[p]) / static_cast<double>(report.makespan));
    EXPECT_EQ(in.string_attribute("/links/busy_ps", "units"), "ps");

    // Traffic figures and the histogram.
    EXPECT_EQ(in.attribute<std::uint64_t>("/traffic", "messages_delivered"), report.messages_delivered);
    EXPECT_EQ(in.attribute<std::uint64_t>("/traffic", "bytes_delivered"), report.bytes_delivered);
    EXPECT_EQ(in.attribute<std::uint64_t>("/traffic", "makespan_ps"), report.makespan);
    EXPECT_EQ(in.attribute<std::uint64_t>("/traffic", "completion_p99_ps"), report.completion_p99);
    EXPECT_EQ(in.attribute<double>("/traffic", "aggregate_throughput_Bps"), report.aggregate_throughput);
    EXPECT_EQ(static_cast<double>(in.attribute<std::uint64_t>("/traffic", "completion_sum_ps")) /
                  static_cast<double>(report.messages_delivered),
              report.completion_mean);
    EXPECT_EQ(total(in.read<std::uint64_t>("/traffic/completion_histogram_count")), report.messages_delivered);
    const auto low = in.read<std::uint64_t>("/traffic/completion_histogram_low_ps");
    const auto high = in.read<std::uint64_t>("/traffic/completion_histogram_high_ps");
    ASSERT_FALSE(low.empty());
    EXPECT_LE(low.front(), report.completion_min);
    EXPECT_GE(high.back(), report.completion_max);
    // /statistics: the reduced registry, from which /traffic's figures and histogram are derived.
    EXPECT_EQ(total(in.read<std::uint64_t>("/statistics/completion_ps_by_bucket")), report.messages_delivered);
    EXPECT_EQ(in.attribute<std::uint64_t>("/statistics", "completion_ps_count"), report.messages_delivered);
    EXPECT_EQ(in.attribute<std::uint64_t>("/statistics", "completion_ps_min"), report.completion_min);
    EXPECT_EQ(in.attribute<std::uint64_t>("/statistics", "completion_ps_max"), report.completion_max);
    EXPECT_EQ(in.read<std::uint64_t>("/statistics/bytes_delivered"), std::vector<std::uint64_t>{report.bytes_delivered});
    EXPECT_EQ(in.read<std::uint64_t>("/statistics/last_delivery_ps"), std::vector<std::uint64_t>{report.makespan});

    // Placement and engine: one row per rank.
    const auto rack_rank = in.read<std::int32_t>("/partition/rack_rank");
    ASSERT_EQ(rack_rank.size(), topology.racks.size());
    const auto racks = in.read<std::uint64_t>("/partition/racks");
    ASSERT_EQ(racks.size(), static_cast<std::size_t>(comm.size()));
    for (int r = 0; r < comm.size(); ++r)
      EXPECT_EQ(racks[static_cast<std::size_t>(r)], static_cast<std::uint64_t>(std::count(rack_rank.begin(), rack_rank.end(), r)));
    EXPECT_EQ(total(in.read<std::uint64_t>("/engine/lps")), topology.nodes.size());
    EXPECT_EQ(total(in.read<std::uint64_t>("/engine/events")), in.attribute<std::uint64_t>("/", "events"));
  }
}

TEST(TrafficOutput, ResultsAreIdenticalToASequentialRunForEveryPartitionMethod) {
  const auto comm = world();
  const ScratchDir dir(comm, "traffic-identical");
  for (const std::string fidelity : {"analytical", "chunk"}) {
    SCOPED_TRACE(fidelity);
    const auto s = scenario(fidelity);
    const std::string reference = dir / (fidelity + "-sequential.h5");
    if (comm.rank() == 0) (void)run(self(), s, reference);
    comm.barrier();
    for (const std::string method : {"block", "round_robin", "metis"}) {
      SCOPED_TRACE(method);
      const std::string path = dir / (fidelity + "-" + method + ".h5");
      (void)run(comm, s, path, method);
      if (comm.rank() != 0) continue;
      const H5Reader a(reference), b(path);
      rackscale::test::expect_same_results(a, b, 40, {"/traffic"});
      for (const std::string name : {"config", "scenario", "seed", "network_fidelity", "topology", "format_version"})
        EXPECT_EQ(a.raw_attribute("/", name), b.raw_attribute("/", name)) << name;
    }
  }
}

TEST(TrafficOutput, AFailedWriteLeavesNoFile) {
  const auto comm = world();
  const ScratchDir dir(comm, "traffic-failed");
  const auto s = scenario("analytical");
  const std::string path = dir / "out.h5";
  app::RunOptions options;
  ASSERT_EQ(app::prepare_traffic_output(comm, s, {path, true}, options), "");
  // Something takes the name while the run goes on: a directory, which a file cannot replace.
  if (comm.rank() == 0) fs::create_directory(path);
  comm.barrier();
  try {
    (void)app::run_traffic(comm, s, options);
    ADD_FAILURE() << "the run succeeded";
  } catch (const app::ResultsFileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the results file " + path), std::string::npos) << e.what();
  }
  comm.barrier();
  EXPECT_TRUE(fs::is_directory(path));
  EXPECT_TRUE(fs::is_empty(path));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1) << "no partial file left";
}

TEST(TrafficOutput, ExistingFilesAndOtherWorkloadsAreRefusedBeforeSimulating) {
  const auto comm = world();
  const ScratchDir dir(comm, "traffic-refused");
  const std::string path = dir / "out.h5";
  if (comm.rank() == 0) std::ofstream(path) << "old";
  comm.barrier();
  app::RunOptions options;
  EXPECT_EQ(app::prepare_traffic_output(comm, scenario("analytical"), {path, false}, options),
            "--output " + path + ": the file exists (--force replaces it)");
  EXPECT_FALSE(options.on_finished);
  auto collective = scenario("analytical");
  collective.workload.kind = rackscale::models::WorkloadKind::collective;
  EXPECT_NE(app::prepare_traffic_output(comm, collective, {dir / "other.h5", false}, options).find("traffic workloads only"),
            std::string::npos);
  EXPECT_EQ(app::prepare_traffic_output(comm, scenario("analytical"), {"", false}, options), "");
  EXPECT_FALSE(options.on_finished);
}
