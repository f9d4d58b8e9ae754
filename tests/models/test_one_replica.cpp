// One replica for all (workload.simulated_replicas: one; docs/models.md): replica 0 standing for every
// data-parallel replica gives the figures of simulating them all, field by field, including every port's
// bytes and busy time and every device's row, on any rank count; and a job whose replicas are not
// placed alike, or whose config tells them apart, is refused before simulating.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <gtest/gtest.h>

#include "app/training_run.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "sim/one_replica.hpp"

namespace {

namespace wl = rackscale::models::workload;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

// 128 H100s in 16 nodes: their 128 NICs take a 2-tier fat tree of 64-port switches, 4 nodes under each
// leaf. TP 2 x CP 2 x PP 2 leaves 16 replicas, 4 devices apart: replica r sits on node r / 2 of each
// stage's 8 nodes, so a data-parallel group spans 2 leaves (its members are 1 to 3 hops from the leader),
// while every replica's pipeline transfers cross from one leaf to another alike.
constexpr const char* kAlike = R"(name: one-replica-alike
cluster:
  nodes: 16
  devices_per_node: 8
  nodes_per_rack: 2
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_up: {kind: nvswitch, domain_devices: 8, bandwidth: 450GB/s, latency: 500ns, switch: nvswitch-gen3}
  scale_out:
    topology: fat_tree
    switch: quantum2-qm9700
    cable_latency: 50ns
network: {fidelity: analytical}
workload:
  type: training
  model: {name: tiny, layers: 4, hidden: 1024, heads: 8, vocabulary: 32000, sequence: 2048}
  parallel: {tensor: 2, context: 2, pipeline: 2, zero_stage: 1, global_batch: 32, micro_batch: 1}
  iterations: 2
tco:
  token_budget: 1e9
)";

// 48 devices, 4 per node, on a 2-tier fat tree of 64-port switches (8 nodes under a leaf): TP 2 x PP 2
// leaves 12 replicas, 2 devices apart, and a stage is 6 nodes. Replica 0's pipeline transfer goes from
// node 0 to node 6 under the same leaf, replica 4's from node 2 to node 8 across the spines.
constexpr const char* kUnlike = R"(name: one-replica-unlike
cluster:
  nodes: 12
  devices_per_node: 4
  nodes_per_rack: 2
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_up: {kind: nvswitch, domain_devices: 4, bandwidth: 450GB/s, latency: 500ns, switch: nvswitch-gen3}
  scale_out:
    topology: fat_tree
    switch: quantum2-qm9700
    fat_tree: {tiers: 2}
network: {fidelity: analytical}
workload:
  type: training
  model: {name: tiny, layers: 4, hidden: 1024, heads: 8, vocabulary: 32000, sequence: 2048}
  parallel: {tensor: 2, pipeline: 2, global_batch: 24, micro_batch: 1}
  simulated_replicas: one
)";

rackscale::models::Scenario load(const char* name, const char* yaml, const std::vector<std::string>& overrides) {
  // One file per rank: ranks load it at their own pace.
  const auto path =
      std::filesystem::path(::testing::TempDir()) / (std::string(name) + "_" + std::to_string(world().rank()) + ".yaml");
  std::ofstream(path) << yaml;
  return rackscale::io::load_scenario(path.string(), overrides);
}

// What a run leaves besides its report: every port's figures summed over ranks, every device's row.
struct Leftovers {
  std::vector<std::uint64_t> port_bytes, port_busy, port_messages;
  std::vector<std::uint64_t> device_words;  // per device: its breakdown, bytes and iteration ends
};

struct Outcome {
  wl::TrainingReport report;
  Leftovers left;
};

Outcome run(const boost::mpi::communicator& comm, const rackscale::models::Scenario& scenario) {
  Outcome out;
  const auto observe = [&](const wl::TrainingRunState& state) {
    const auto sum = [&](const std::vector<std::uint64_t>& mine) {
      std::vector<std::uint64_t> all(mine.size());
      boost::mpi::all_reduce(comm, mine.data(), static_cast<int>(mine.size()), all.data(), std::plus<>());
      return all;
    };
    out.left.port_bytes = sum(state.counters.bytes());
    out.left.port_busy = sum(state.counters.busy());
    out.left.port_messages = sum(state.counters.chunks());
    constexpr std::size_t kWords = 12;  // 8 breakdown parts, 2 byte counts, 2 iteration ends
    std::vector<std::uint64_t> rows(state.topology.device_count() * kWords, 0);
    for (const wl::DeviceRun& d : state.devices) {
      const auto& b = d.breakdown;
      const std::uint64_t row[] = {b.forward,         b.backward, b.recompute,   b.optimizer,    b.other_compute,
                                   b.exposed_communication, b.pipeline_bubble, b.idle, d.pipeline_bytes,
                                   d.context_bytes,   d.iteration_end.at(0), d.iteration_end.at(1)};
      std::copy(std::begin(row), std::end(row), rows.begin() + static_cast<std::ptrdiff_t>(d.device * kWords));
    }
    out.left.device_words = sum(rows);
  };
  out.report = rackscale::app::run_training(comm, scenario, {}, observe);
  return out;
}

// Equal tables, or the differing entries (the first few) named.
void expect_same_rows(const char* what, const std::vector<std::uint64_t>& one, const std::vector<std::uint64_t>& all) {
  ASSERT_EQ(one.size(), all.size()) << what;
  int reported = 0;
  for (std::size_t i = 0; i < one.size() && reported < 8; ++i)
    if (one[i] != all[i]) {
      ADD_FAILURE() << what << " [" << i << "]: one replica " << one[i] << ", every replica " << all[i];
      ++reported;
    }
}

void expect_same(const Outcome& one, const Outcome& all) {
  const wl::TrainingReport& a = one.report;
  const wl::TrainingReport& b = all.report;
  EXPECT_EQ(a.iteration_times, b.iteration_times);
  EXPECT_EQ(a.simulated_time, b.simulated_time);
  EXPECT_EQ(a.breakdown.forward, b.breakdown.forward);
  EXPECT_EQ(a.breakdown.exposed_communication, b.breakdown.exposed_communication);
  EXPECT_EQ(a.breakdown.pipeline_bubble, b.breakdown.pipeline_bubble);
  EXPECT_EQ(a.breakdown.idle, b.breakdown.idle);
  ASSERT_EQ(a.collectives.size(), b.collectives.size());
  for (std::size_t i = 0; i < a.collectives.size(); ++i) {
    EXPECT_EQ(a.collectives[i].tally.calls, b.collectives[i].tally.calls) << i;
    EXPECT_EQ(a.collectives[i].tally.bytes, b.collectives[i].tally.bytes) << i;
    EXPECT_EQ(a.collectives[i].tally.time, b.collectives[i].tally.time) << i;
    EXPECT_EQ(a.collectives[i].tally.longest, b.collectives[i].tally.longest) << i;
  }
  EXPECT_EQ(a.energy.limbs(), b.energy.limbs());
  ASSERT_TRUE(a.tco && b.tco);
  EXPECT_EQ(a.tco->whole_run.cost_usd, b.tco->whole_run.cost_usd);
  EXPECT_EQ(a.tco->whole_run.carbon_kgco2e, b.tco->whole_run.carbon_kgco2e);
  expect_same_rows("port bytes", one.left.port_bytes, all.left.port_bytes);
  expect_same_rows("port busy time", one.left.port_busy, all.left.port_busy);
  expect_same_rows("port messages", one.left.port_messages, all.left.port_messages);
  expect_same_rows("device words", one.left.device_words, all.left.device_words);
}

}  // namespace

TEST(OneReplica, SameFiguresAsSimulatingEveryReplica) {
  const Outcome all = run(self(), load("alike", kAlike, {}));
  // The case is one where the replicas meet at all: data-parallel calls, over more than one leaf.
  ASSERT_EQ(all.report.sizes.data, 16u);
  ASSERT_EQ(all.report.iteration_times.size(), 2u);
  const auto data_calls = std::count_if(all.report.collectives.begin(), all.report.collectives.end(),
                                        [](const auto& c) { return c.group == rackscale::models::accelerator::GroupKind::data; });
  EXPECT_GT(data_calls, 0);
  const auto scenario = load("alike", kAlike, {"workload.simulated_replicas=one"});
  const Outcome one_alone = run(self(), scenario);
  expect_same(one_alone, all);
  // On every rank count: the simulated replica's devices are spread over the ranks.
  const Outcome one = run(world(), scenario);
  expect_same(one, all);
  // A tenth of the events or less: 16 replicas, of which one runs (the idle devices start no event).
  EXPECT_LT(one_alone.report.engine.total.events_processed * 10, all.report.engine.total.events_processed);
}

TEST(OneReplica, RefusesReplicasPlacedUnlike) {
  const auto scenario = load("unlike", kUnlike, {});
  try {
    (void)rackscale::app::run_training(world(), scenario, {});
    FAIL() << "expected ReplicasUnlike";
  } catch (const rackscale::sim::ReplicasUnlike& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("workload.simulated_replicas: one: replica ")) << message;
    EXPECT_NE(message.find("is not placed like replica 0"), std::string::npos) << message;
    EXPECT_NE(message.find("use all"), std::string::npos) << message;
  }
  // Simulating them all runs.
  const auto all = rackscale::app::run_training(world(), load("unlike", kUnlike, {"workload.simulated_replicas=all"}), {});
  EXPECT_GT(all.iteration_time, 0u);
}

TEST(OneReplica, RefusesWhatTellsReplicasApart) {
  const struct {
    std::vector<std::string> overrides;
    const char* expected;
  } cases[] = {
      {{"network.fidelity=chunk"}, "needs network.fidelity: analytical"},
      {{"network.collectives=messages"}, "needs collectives in closed form"},
      {{"workload.variability.compute.distribution=lognormal", "workload.variability.compute.sigma=0.02"},
       "cannot take workload.variability"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> overrides = c.overrides;
    overrides.push_back("workload.simulated_replicas=one");
    try {
      (void)load("refused", kAlike, overrides);
      ADD_FAILURE() << "expected a ConfigError for " << c.expected;
    } catch (const rackscale::io::ConfigError& e) {
      // Located at the override that asked for one replica.
      const std::string message = e.what();
      EXPECT_TRUE(message.starts_with("--set workload.simulated_replicas=one: workload.simulated_replicas: one: it " +
                                      std::string(c.expected)))
          << message;
    }
  }
  // Located at the file's line when the file asks for it.
  try {
    (void)load("refused_in_file", kUnlike, {"network.fidelity=chunk"});
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const rackscale::io::ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("refused_in_file_"), std::string::npos) << message;
    EXPECT_NE(message.find(".yaml:18:"), std::string::npos) << message;
    EXPECT_NE(message.find("workload.simulated_replicas: one: it needs network.fidelity: analytical"), std::string::npos)
        << message;
  }
}
