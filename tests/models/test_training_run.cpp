// A whole training run (the README's default example: 64 H100s, TP 2 x PP 2 x DP 16, chunk-level network)
// gives identical figures on any rank count and partition method: each rank first runs it alone as the
// reference. And the figures hang together: the breakdown adds up to the iteration time.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/path.hpp"
#include "pdes/time.hpp"

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }
}  // namespace

TEST(TrainingRun, IdenticalOnEveryRankCountAndPartitionMethod) {
  const auto scenario = rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml", {});
  const auto reference = rackscale::app::run_training(self(), scenario, {});
  ASSERT_EQ(reference.iteration_times.size(), 2u);
  // Every device's time is accounted for: the mean breakdown adds up to the mean iteration time.
  const double mean_iteration =
      static_cast<double>(reference.iteration_times[0] + reference.iteration_times[1]) / 2.0;
  EXPECT_NEAR(reference.breakdown.total(), mean_iteration, 1e-6 * mean_iteration);
  EXPECT_GT(reference.breakdown.pipeline_bubble, 0.0);
  EXPECT_GT(reference.breakdown.exposed_communication, 0.0);
  for (const std::string method : {"block", "round_robin", "metis"}) {
    rackscale::app::RunOptions options;
    options.partition = method;
    const auto run = rackscale::app::run_training(world(), scenario, options);
    EXPECT_EQ(run.iteration_times, reference.iteration_times) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.forward, reference.breakdown.forward) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.exposed_communication, reference.breakdown.exposed_communication) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.pipeline_bubble, reference.breakdown.pipeline_bubble) << method;
    ASSERT_EQ(run.collectives.size(), reference.collectives.size()) << method;
    for (std::size_t i = 0; i < run.collectives.size(); ++i) {
      EXPECT_EQ(run.collectives[i].tally.calls, reference.collectives[i].tally.calls) << method;
      EXPECT_EQ(run.collectives[i].tally.time, reference.collectives[i].tally.time) << method;
    }
    EXPECT_EQ(run.mfu, reference.mfu) << method;
    // Energy: the exact limbs, and the TCO computed from them.
    EXPECT_EQ(run.energy.limbs(), reference.energy.limbs()) << method;
    ASSERT_TRUE(run.tco && reference.tco) << method;
    EXPECT_EQ(run.tco->whole_run.cost_usd, reference.tco->whole_run.cost_usd) << method;
    EXPECT_EQ(run.tco->whole_run.carbon_kgco2e, reference.tco->whole_run.carbon_kgco2e) << method;
  }
}

// ---- energy and TCO -------------------------------------------------------------------------------------

namespace {

namespace net = rackscale::models::network;

// Two H100 hosts of one device each on one switch (the fewest tiers that hold 2 NICs): data parallelism 2, so the only traffic is the
// gradient all-reduce between the two devices, through their NICs and the switches between them.
constexpr const char* kTwoHosts = R"(name: energy-two-hosts
cluster:
  nodes: 2
  devices_per_node: 1
  nodes_per_rack: 1
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_out:
    topology: fat_tree
    switch: quantum2-qm9700
network: {fidelity: analytical}
workload:
  type: training
  model: {name: tiny, layers: 2, hidden: 1024, heads: 8, vocabulary: 32000, sequence: 1024}
  parallel: {data: 2, global_batch: 8}
tco:
  token_budget: 1e9
  power: {host_idle: 300W, host_active: 800W}
)";

rackscale::models::Scenario two_hosts(const std::vector<std::string>& overrides) {
  // One file per rank: ranks load it at their own pace.
  const auto path = std::filesystem::path(::testing::TempDir()) /
                    ("energy_two_hosts_" + std::to_string(world().rank()) + ".yaml");
  std::ofstream(path) << kTwoHosts;
  return rackscale::io::load_scenario(path.string(), overrides);
}

}  // namespace

// The energy worked by hand from the run's own figures and the presets: accelerators idle 70 W -> TDP
// 700 W over their compute time; hosts 300 W -> 800 W following their one device; NICs 17.5 W -> 25 W
// over half their transmit plus receive time; switches 525 W idle plus 3.5 W per port at full rate both
// ways (the mean of its two directions' busy time); the optics of the two NIC cables, each joining a
// host's rack to the switch's rack, 9 W at each of their 4 ends the whole time. The all-reduce moves each device's gradients once each way, so the NICs carry the
// collectives' bytes at the NIC link's bandwidth, and every switch hop on the path carries them again.
// The same with collectives as messages and as closed forms (which charge the ports their messages
// would load), and identical on every rank count.
TEST(TrainingEnergy, TwoHostsWorkedByHand) {
  for (const std::string mode : {"messages", "closed_form"}) {
    SCOPED_TRACE(mode);
    const auto scenario = two_hosts({"network.collectives=" + mode});
    const auto r = rackscale::app::run_training(self(), scenario, {});
    ASSERT_EQ(r.iterations, 1u);
    ASSERT_EQ(r.simulated_time, r.iteration_time);
    const double T = rackscale::pdes::to_seconds(r.simulated_time);
    const double compute = r.breakdown.compute() * 2 / 1e12;  // both devices, seconds
    std::uint64_t bytes = 0;
    for (const auto& c : r.collectives) bytes += c.tally.bytes;
    ASSERT_GT(bytes, 0u);

    const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
    const net::NodeId a = topology.devices[0], b = topology.devices[1];
    const auto path = net::path_figures(topology, a, b, 0);
    const double bandwidth = path.bottleneck;
    ASSERT_EQ(topology.ports_of(a)[0].bandwidth, bandwidth);  // every hop at the NIC link's rate
    const double switches = static_cast<double>(topology.switch_count());

    const double accelerators = 2 * 70 * T + (700 - 70) * compute;
    const double hosts = 2 * 300 * T + (800 - 300) * compute;
    const double nic_traffic = (25 - 17.5) * static_cast<double>(bytes) / bandwidth;
    const double nics = 2 * 17.5 * T + nic_traffic;
    // Each switch on the path has two busy ports, each at (its share out + its share in) / 2: together
    // the bytes once.
    const double switch_traffic = 3.5 * static_cast<double>(bytes) / bandwidth * (path.hops - 1);
    const double switch_j = switches * 525 * T + switch_traffic;
    EXPECT_NEAR(r.energy.accelerators.joules(), accelerators, 1e-9 * accelerators);
    EXPECT_NEAR(r.energy.hosts.joules(), hosts, 1e-9 * hosts);
    // The network rounds each message's serialization up to a whole picosecond: allow 1e-5 of the traffic's
    // part (messages here take microseconds).
    EXPECT_NEAR(r.energy.nics.joules(), nics, 1e-5 * nic_traffic);
    EXPECT_NEAR(r.energy.switches.joules(), switch_j, 1e-5 * switch_traffic);
    ASSERT_EQ(topology.switch_count(), 1u);  // 2 NICs: one switch, no idle spine
    EXPECT_NEAR(r.energy.optics.joules(), 4 * 9.0 * T, 1e-9 * T);
    // Traffic is a visible share of the NICs' energy (this is not all idle power).
    EXPECT_GT(nic_traffic, 1e-2 * nics);
    ASSERT_EQ(r.device_energy.size(), 2u);
    EXPECT_EQ(r.device_energy[0].accelerator + r.device_energy[1].accelerator, r.energy.accelerators);
    EXPECT_NEAR(r.mean_it_watts, r.energy.total().joules() / T, 1e-9 * r.mean_it_watts);

    // The TCO takes the per-iteration energy and the hardware counted from the topology.
    ASSERT_TRUE(r.tco.has_value());
    const auto& t = *r.tco;
    EXPECT_EQ(t.iterations, (1'000'000'000u + 8191u) / 8192u);  // 8 sequences of 1,024 tokens
    EXPECT_NEAR(t.whole_run.it_energy_kwh, r.energy.total().joules() * static_cast<double>(t.iterations) / 3.6e6,
                1e-9 * t.whole_run.it_energy_kwh);
    // The facility's design load: the switch idle plus its 2 cabled ports at full rate, and 4 optics.
    EXPECT_NEAR(t.provisioned_it_kw, (2 * 700 + 2 * 800 + 2 * 25 + switches * 525 + 2 * 3.5 + 4 * 9) / 1e3, 1e-12);
    EXPECT_DOUBLE_EQ(t.accelerators_capex_usd, 2 * 25'000.0);
  }
  // Identical limbs and TCO on every rank count.
  const auto scenario = two_hosts({});
  const auto alone = rackscale::app::run_training(self(), scenario, {});
  const auto all = rackscale::app::run_training(world(), scenario, {});
  EXPECT_EQ(all.energy.limbs(), alone.energy.limbs());
  ASSERT_TRUE(all.tco && alone.tco);
  EXPECT_EQ(all.tco->whole_run.cost_usd, alone.tco->whole_run.cost_usd);
  EXPECT_EQ(all.tco->whole_run.carbon_kgco2e, alone.tco->whole_run.carbon_kgco2e);
}
