// Fabric capacity in chunk mode, through the whole path users take (YAML -> topology -> partition ->
// engine -> reduced report): permutation traffic on a non-blocking fat tree with spraying runs near
// line rate; all-to-all through a 2:1 oversubscribed leaf tier runs at about half the non-blocking
// rate; results are identical for every rank count and partition method.
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/network_run.hpp"
#include "io/config/scenario_loader.hpp"

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }
const std::string kConfigs = RACKSCALE_TEST_CONFIGS;

rackscale::models::traffic::TrafficReport run(const std::string& config, const std::vector<std::string>& overrides,
                                              const std::string& partition = "block",
                                              const boost::mpi::communicator& comm = world()) {
  const auto scenario = rackscale::io::load_scenario(config.front() == '/' ? config : kConfigs + "/" + config, overrides);
  rackscale::app::RunOptions options;
  options.partition = partition;
  return rackscale::app::run_traffic(comm, scenario, options);
}
}  // namespace

// 128 devices, one 400 Gb/s NIC each, 16 leaves and 8 spines of radix 16; each device sends 16 MiB
// to another in 4 KiB chunks sprayed over the spines. Every NIC is a bottleneck of the same rate, so
// line rate is 128 x 50 GB/s; random spraying loses a little to collisions at spine ports.
TEST(TrafficCapacity, PermutationOnANonBlockingFatTreeWithSprayingNearsLineRate) {
  const auto report = run("fat-tree-nonblocking-128.yaml", {});
  EXPECT_EQ(report.messages_delivered, 128u);
  EXPECT_DOUBLE_EQ(report.injection_bandwidth, 128 * 50e9);
  EXPECT_GE(report.line_rate_fraction, 0.90);
  EXPECT_LE(report.line_rate_fraction, 1.0);
  // ECMP pins each message to one spine: hash collisions leave spine ports shared for the whole
  // message, far below line rate. The contrast shows the spraying is doing the work.
  const auto ecmp = run("fat-tree-nonblocking-128.yaml", {"network.routing=ecmp"});
  EXPECT_LT(ecmp.line_rate_fraction, 0.6);
}

// All-to-all of 128 KiB messages among N = 288 devices. Non-blocking (12 down, 12 up per leaf) against
// 2:1 (16 down, 8 up). The 2:1 run is bound by its uplinks: a leaf's d = 16 devices send S to each of
// the N - d devices elsewhere through u = 8 uplinks, taking d (N - d) S / (u B) = 2 (N - d) S / B,
// against (N - 1) S / B at line rate; the throughput ratio is (N - 1) / (2 (N - d)) = 0.528, i.e. half
// the non-blocking rate within 10 % (the intra-leaf share of traffic is what lifts it above 0.5).
TEST(TrafficCapacity, AllToAllThroughATwoToOneTierRunsAtHalfTheRate) {
  const auto full = run("fat-tree-all-to-all-288.yaml", {});
  const auto half = run("fat-tree-all-to-all-288.yaml", {"cluster.scale_out.fat_tree.oversubscription=2"});
  ASSERT_EQ(full.messages_delivered, 288u * 287u);
  ASSERT_EQ(half.messages_delivered, 288u * 287u);
  const double ratio = half.aggregate_throughput / full.aggregate_throughput;
  EXPECT_NEAR(ratio, 0.5, 0.05) << "non-blocking " << full.aggregate_throughput << " B/s, 2:1 "
                                << half.aggregate_throughput << " B/s";
}

// Every figure of a run is the same on 1, 2 and 4 ranks (CTest runs this binary on each) and for every
// partition method: each rank first runs the scenario alone (MPI_COMM_SELF) as the reference. Covers the
// topologies and routers with the most state in flight: sprayed fat tree, rail-optimized tree, dragonfly
// with Valiant routing, torus; and cables down (cluster.degraded_links fraction 0), whose routes move to
// other ones chosen from each pair's own data: a leaf uplink under spraying and ECMP, a dragonfly global
// cable under minimal routing.
TEST(TrafficCapacity, IdenticalToOneRankForEveryPartitionMethod) {
  const std::string examples = RACKSCALE_EXAMPLE_CONFIGS;
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"fat-tree-nonblocking-128.yaml", {"workload.bytes=1MiB", "network.chunk_size=64KiB"}},
      {examples + "/rail-fat-tree-1024.yaml", {"workload.pattern=permutation", "network.fidelity=chunk"}},
      {examples + "/dragonfly-256.yaml", {"network.fidelity=chunk", "network.routing=valiant"}},
      {examples + "/torus-tpu-v5p-512.yaml", {"network.fidelity=chunk", "workload.pattern=uniform_random"}},
      // Port 128: leaf node 128's first uplink; port 779: a global cable (validate accepts both down).
      {"fat-tree-nonblocking-128.yaml",
       {"workload.bytes=1MiB", "network.chunk_size=64KiB", "cluster.degraded_links=[{link: 128, fraction: 0}]"}},
      {"fat-tree-nonblocking-128.yaml",
       {"workload.bytes=1MiB", "network.chunk_size=64KiB", "network.routing=ecmp",
        "cluster.degraded_links=[{link: 128, fraction: 0}]"}},
      {examples + "/dragonfly-256.yaml",
       {"network.fidelity=chunk", "network.routing=minimal", "cluster.degraded_links=[{link: 779, fraction: 0}]"}},
  };
  for (const auto& [config, overrides] : cases) {
    const auto reference = run(config, overrides, "block", self());
    ASSERT_GT(reference.messages_delivered, 0u) << config;
    for (const std::string method : {"block", "round_robin", "metis"}) {
      const auto other = run(config, overrides, method);
      const std::string label = config + " with " + method;
      EXPECT_EQ(other.messages_delivered, reference.messages_delivered) << label;
      EXPECT_EQ(other.makespan, reference.makespan) << label;
      EXPECT_EQ(other.completion_min, reference.completion_min) << label;
      EXPECT_EQ(other.completion_p50, reference.completion_p50) << label;
      EXPECT_EQ(other.completion_p99, reference.completion_p99) << label;
      EXPECT_EQ(other.completion_mean, reference.completion_mean) << label;
      EXPECT_EQ(other.bytes_delivered, reference.bytes_delivered) << label;
      if (world().rank() == 0) {
        EXPECT_EQ(other.per_port.bytes, reference.per_port.bytes) << label;
        EXPECT_EQ(other.per_port.waited, reference.per_port.waited) << label;
        EXPECT_EQ(other.per_port.max_wait, reference.per_port.max_wait) << label;
      }
    }
  }
}
