// Train fidelity (src/models/network/train_fabric.hpp) against chunk fidelity, through the whole path users
// take: permutation, incast and all-to-all traffic on a 2:1 oversubscribed fat tree with ECMP, and a
// cut-down of the Llama 3 405B training iteration. The completion times must agree within 2 % (the model
// serves every chunk in chunk fidelity's order, so they agree exactly but for chunks whose heads arrive at
// a port at the same picosecond), with fewer events; and a run gives the same figures on any rank count
// and partition method.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/network_run.hpp"
#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/network/train_run.hpp"

namespace {
namespace net = rackscale::models::network;
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }
const std::string kConfigs = RACKSCALE_TEST_CONFIGS;

rackscale::models::traffic::TrafficReport traffic(std::vector<std::string> overrides, const std::string& fidelity,
                                                  const boost::mpi::communicator& comm = world(),
                                                  const std::string& partition = "block") {
  overrides.push_back("network.fidelity=" + fidelity);
  overrides.push_back("network.routing=ecmp");
  overrides.push_back("cluster.scale_out.fat_tree.oversubscription=2");
  const auto scenario = rackscale::io::load_scenario(kConfigs + "/fat-tree-all-to-all-288.yaml", overrides);
  rackscale::app::RunOptions options;
  options.partition = partition;
  return rackscale::app::run_traffic(comm, scenario, options);
}

void expect_within(double train, double chunk, double tolerance, const std::string& what) {
  EXPECT_NEAR(train, chunk, tolerance * chunk) << what << ": train " << train << ", chunk " << chunk;
}

// Both fidelities on one traffic case: every completion figure within 2 %, the same bytes, fewer events.
void compare(const std::string& label, const std::vector<std::string>& overrides, double max_event_ratio) {
  const auto chunk = traffic(overrides, "chunk");
  const auto train = traffic(overrides, "train");
  ASSERT_GT(chunk.messages_delivered, 0u) << label;
  EXPECT_EQ(train.messages_delivered, chunk.messages_delivered) << label;
  EXPECT_EQ(train.bytes_delivered, chunk.bytes_delivered) << label;
  expect_within(static_cast<double>(train.makespan), static_cast<double>(chunk.makespan), 0.02, label + " makespan");
  expect_within(static_cast<double>(train.completion_p50), static_cast<double>(chunk.completion_p50), 0.02, label + " p50");
  expect_within(static_cast<double>(train.completion_p99), static_cast<double>(chunk.completion_p99), 0.02, label + " p99");
  expect_within(train.completion_mean, chunk.completion_mean, 0.02, label + " mean");
  expect_within(static_cast<double>(train.completion_min), static_cast<double>(chunk.completion_min), 0.02, label + " min");
  if (world().rank() == 0) {
    const double ratio = static_cast<double>(train.engine.total.events_processed) / static_cast<double>(chunk.engine.total.events_processed);
    EXPECT_LE(ratio, max_event_ratio) << label << ": train " << train.engine.total.events_processed << " events, chunk "
                                      << chunk.engine.total.events_processed;
    std::printf("%s: chunk %llu events, train %llu events; makespan %llu / %llu ps, mean FCT %.0f / %.0f ps\n",
                label.c_str(), static_cast<unsigned long long>(chunk.engine.total.events_processed),
                static_cast<unsigned long long>(train.engine.total.events_processed),
                static_cast<unsigned long long>(chunk.makespan), static_cast<unsigned long long>(train.makespan),
                chunk.completion_mean, train.completion_mean);
  }
}
}  // namespace

// 288 single-NIC devices, 16 per leaf and 8 uplinks: ECMP puts several 1 MiB messages on one uplink.
TEST(TrainFidelity, PermutationOnATwoToOneFatTreeMatchesChunkFidelity) {
  compare("permutation", {"workload.pattern=permutation", "workload.bytes=1MiB"}, 0.8);
}

// 64 senders into one receiver: every chunk queues at the receiver's leaf port.
TEST(TrainFidelity, IncastMatchesChunkFidelity) {
  compare("incast", {"workload.pattern=incast", "workload.senders=64", "workload.bytes=1MiB"}, 0.95);
}

// 96 devices (6 leaves), every pair: the uplinks are shared by every message crossing them.
TEST(TrainFidelity, AllToAllOnATwoToOneFatTreeMatchesChunkFidelity) {
  compare("all_to_all", {"cluster.nodes=96", "workload.pattern=all_to_all", "workload.bytes=256KiB"}, 0.95);
}

// The same figures on any rank count (CTest runs this on 1 and 2) and partition method, against this rank
// running it alone.
TEST(TrainFidelity, IdenticalOnEveryRankCountAndPartitionMethod) {
  const std::vector<std::vector<std::string>> cases{
      {"workload.pattern=permutation", "workload.bytes=1MiB"},
      {"cluster.nodes=96", "workload.pattern=all_to_all", "workload.bytes=256KiB"},
      {"workload.pattern=incast", "workload.senders=64", "workload.bytes=1MiB", "network.forwarding=store_and_forward"},
  };
  for (const auto& overrides : cases) {
    const auto reference = traffic(overrides, "train", self());
    for (const std::string method : {"block", "round_robin", "metis"}) {
      const auto other = traffic(overrides, "train", world(), method);
      const std::string label = overrides.front() + " " + overrides.back() + " with " + method;
      EXPECT_EQ(other.messages_delivered, reference.messages_delivered) << label;
      EXPECT_EQ(other.makespan, reference.makespan) << label;
      EXPECT_EQ(other.completion_min, reference.completion_min) << label;
      EXPECT_EQ(other.completion_p50, reference.completion_p50) << label;
      EXPECT_EQ(other.completion_p99, reference.completion_p99) << label;
      EXPECT_EQ(other.completion_sum, reference.completion_sum) << label;
      if (world().rank() == 0) {
        EXPECT_EQ(other.per_port.bytes, reference.per_port.bytes) << label;
        EXPECT_EQ(other.per_port.waited, reference.per_port.waited) << label;
        EXPECT_EQ(other.engine.total.events_processed, reference.engine.total.events_processed) << label;
      }
    }
  }
}

// Store-and-forward: the same agreement.
TEST(TrainFidelity, StoreAndForwardMatchesChunkFidelity) {
  compare("incast, store-and-forward",
          {"workload.pattern=incast", "workload.senders=16", "workload.bytes=1MiB", "network.forwarding=store_and_forward"},
          0.95);
}

// A cut-down of configs/training/llama3-405b-16384-h100.yaml (docs/performance.md): 128 H100s, TP 8 x PP 4
// x DP 4, 16 layers, on a 2-tier rail-optimized tree. The iteration time within 2 % of chunk fidelity's
// (measured: the same to the picosecond), with about a third of the events.
TEST(TrainFidelity, Llama405bCutDownIterationMatchesChunkFidelity) {
  const std::vector<std::string> cut{"cluster.nodes=16",
                                     "cluster.scale_out.fat_tree.tiers=2",  // 8 leaves: one pod
                                     "cluster.scale_out.fat_tree.oversubscription=1",
                                     "workload.parallel.global_batch=16",
                                     "workload.parallel.pipeline=4",
                                     "workload.parallel.virtual_stages=2",
                                     "workload.parallel.first_stage_layers=4",
                                     "workload.parallel.last_stage_layers=4",
                                     "workload.model.layers=16"};
  auto with = [&](const std::string& fidelity) {
    auto overrides = cut;
    overrides.push_back("network.fidelity=" + fidelity);
    const auto scenario =
        rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/llama3-405b-16384-h100.yaml", overrides);
    return rackscale::app::run_training(world(), scenario, {});
  };
  const auto chunk = with("chunk");
  const auto train = with("train");
  ASSERT_EQ(train.iteration_times.size(), chunk.iteration_times.size());
  for (std::size_t i = 0; i < chunk.iteration_times.size(); ++i)
    expect_within(static_cast<double>(train.iteration_times[i]), static_cast<double>(chunk.iteration_times[i]), 0.02,
                  "iteration " + std::to_string(i));
  if (world().rank() == 0) {
    EXPECT_LT(train.engine.total.events_processed, chunk.engine.total.events_processed);
    std::printf("405B cut: chunk %llu events, train %llu events; iteration %llu / %llu ps\n",
                static_cast<unsigned long long>(chunk.engine.total.events_processed),
                static_cast<unsigned long long>(train.engine.total.events_processed),
                static_cast<unsigned long long>(chunk.iteration_times.front()),
                static_cast<unsigned long long>(train.iteration_times.front()));
  }
}

// ---- a run at one port ---------------------------------------------------------------------------------

namespace {
// 64 KiB chunks; a port of `bandwidth` B/s and 100 ns latency.
constexpr std::uint64_t kChunk = 64 * 1024;
net::OutputPort make_port(double bandwidth) {
  net::OutputPort p;
  p.bandwidth = bandwidth;
  p.latency = 100'000;
  p.full_chunk_serialize = net::serialization_time(kChunk, bandwidth);
  return p;
}
net::Run source_run(std::uint32_t chunks, std::uint32_t last_bytes) {
  net::Run run;
  run.count = chunks;
  run.bytes_end = last_bytes;
  run.ends_message = true;
  return run;
}
const net::TrainSettings kCutThrough{net::Forwarding::cut_through, kChunk};
constexpr auto kNever = std::numeric_limits<rackscale::pdes::SimTime>::max();
}  // namespace

// A message leaves its device as one run at the port's pace, and a slower port passes it on as one run at
// its own pace: chunk fidelity's times (start = max(head, free), finish = max(start + s, head + tail)).
TEST(TrainRun, AnUncontendedRunLeavesAsOneRunAtTheSlowerPace) {
  net::PortCounters counters(1);
  const net::OutputPort fast = make_port(100e9);
  const net::Passage first = net::pass_port(source_run(8, 1000), 0, fast, kCutThrough, kNever, counters);
  ASSERT_EQ(first.taken, 8u);
  const auto s_fast = net::serialization_time(kChunk, 100e9);
  EXPECT_EQ(first.out.head, fast.latency);
  EXPECT_EQ(first.out.pace, s_fast);
  EXPECT_EQ(first.out.tail_end, net::serialization_time(1000, 100e9));
  EXPECT_EQ(first.free_after, 7 * s_fast + net::serialization_time(1000, 100e9));

  const net::OutputPort slow = make_port(50e9);
  const auto s_slow = net::serialization_time(kChunk, 50e9);
  const net::Passage second = net::pass_port(first.out, 0, slow, kCutThrough, kNever, counters);
  ASSERT_EQ(second.taken, 8u);
  EXPECT_EQ(second.out.head, first.out.head + slow.latency);
  EXPECT_EQ(second.out.pace, s_slow);
  // The last chunk (1,000 bytes) starts when the 7th full one is done and is serialized at this port's rate.
  EXPECT_EQ(second.last_tail_at, first.out.head + 7 * s_slow + net::serialization_time(1000, 50e9) + slow.latency);
  EXPECT_EQ(counters.bytes()[0], 2 * (7 * kChunk + 1000));
}

// A competitor known to reach the port at `limit` splits the run there: the chunks whose heads come later
// are left for after it. Taking chunks back undoes their counters and rolls the port back.
TEST(TrainRun, AKnownCompetitorSplitsARunAndTakingBackUndoesIt) {
  net::PortCounters counters(1);
  const net::OutputPort fast = make_port(100e9);
  const net::Passage first = net::pass_port(source_run(8, kChunk), 0, fast, kCutThrough, kNever, counters);
  const net::OutputPort slow = make_port(50e9);
  net::Run in = first.out;
  const auto limit = in.head_of(3);
  const net::Passage split = net::pass_port(in, 0, slow, kCutThrough, limit, counters);
  EXPECT_EQ(split.taken, 4u);  // heads 0..3 are no later than the competitor
  const auto before = counters.bytes()[0];
  const net::Passage kept = net::take_back(in, 0, slow, kCutThrough, 2, counters);
  EXPECT_EQ(counters.bytes()[0], before - 6 * kChunk);
  const net::Passage two = net::pass_port(in.prefix(2, net::Forwarding::cut_through, kChunk), 0, slow, kCutThrough,
                                          kNever, counters);
  EXPECT_EQ(kept.free_after, two.free_after);
  EXPECT_EQ(kept.last_tail_at, two.last_tail_at);
}
