// Programs from the training workload generator (models/workload/training_plan.hpp), run by the
// accelerator model on a hand-built star, against timelines worked out by hand from the ops' compute
// times: 1F1B on uneven pipeline stages, and ring attention (context parallelism) with the transfers
// longer and shorter than the attention they overlap. Identical on every rank count.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "../workload/workload_test_support.hpp"
#include "hand_topology.hpp"
#include "models/accelerator/compute_model.hpp"
#include "models/accelerator/device_executor.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/output_port.hpp"
#include "models/workload/layer_costs.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_role.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace acc = rackscale::models::accelerator;
namespace wl = rackscale::models::workload;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::AcceleratorSpec h100() {
  rackscale::models::AcceleratorSpec a;
  a.name = "h100";
  a.peak_bf16_flops = 989.4e12;
  a.memory_bytes = 80ULL << 30;
  a.memory_bandwidth = 3.35e12;
  return a;
}

// What a test engine reports for `call`, started at `start` and taking `took`.
rackscale::models::collectives::CallRecord record_of(const rackscale::models::collectives::CollectiveCall& call,
                                                     SimTime start, SimTime took) {
  rackscale::models::collectives::CallRecord record;
  record.key = call.key;
  record.kind = call.kind;
  record.bytes = call.bytes;
  record.members = static_cast<std::uint32_t>(call.members.size());
  record.start = start;
  record.end = start + took;
  return record;
}

// Every collective completes the moment it starts: the data-parallel gradient reduction of a CP group
// (its DP x CP group) then costs nothing, and the timelines are the programs' compute and point-to-point
// transfers alone.
class InstantCollectives final : public rackscale::models::collectives::CollectiveEngine {
 public:
  void start(net::DeviceLp& device, const rackscale::models::collectives::CollectiveCall& call,
             Completion done) override {
    done(record_of(call, device.time(), 0));
  }
  void on_delivery(net::DeviceLp&, const net::Delivery&) override {}
};

// Every all-gather and reduce-scatter takes its ring's alpha-beta time, (p - 1)(a + S / (p B)) with every
// term rounded up to a picosecond, from the moment this member starts it (members of the programs below
// start their calls together, so no synchronization is modelled); anything else completes at once.
class RingTimeCollectives final : public rackscale::models::collectives::CollectiveEngine {
 public:
  RingTimeCollectives(SimTime latency, double bandwidth) : latency_(latency), bandwidth_(bandwidth) {}

  static SimTime ring_time(std::uint64_t bytes, std::uint64_t p, SimTime latency, double bandwidth) {
    return (p - 1) * (latency + net::serialization_time((bytes + p - 1) / p, bandwidth));
  }

  void start(net::DeviceLp& device, const rackscale::models::collectives::CollectiveCall& call,
             Completion done) override {
    const bool ring = call.kind == acc::CollectiveKind::all_gather || call.kind == acc::CollectiveKind::reduce_scatter;
    const SimTime took = ring ? ring_time(call.bytes, call.members.size(), latency_, bandwidth_) : 0;
    pending_.emplace(call.key, std::make_pair(record_of(call, device.time(), took), std::move(done)));
    device.schedule(took, rackscale::models::collectives::kCollectiveTimerKind, pdes::to_payload(call.key));
  }
  void on_delivery(net::DeviceLp&, const net::Delivery&) override {}
  void on_timer(net::DeviceLp&, const pdes::Event& event) override {
    const auto it = pending_.find(event.as<std::uint32_t>());
    auto [record, done] = std::move(it->second);
    pending_.erase(it);
    done(record);
  }

 private:
  SimTime latency_;
  double bandwidth_;
  std::map<std::uint32_t, std::pair<rackscale::models::collectives::CallRecord, Completion>> pending_;
};

using EngineFactory = std::function<std::unique_ptr<rackscale::models::collectives::CollectiveEngine>()>;

struct DeviceFigures {
  SimTime end = 0;  // of its (one) iteration
  acc::TimeBreakdown breakdown;
};

// Runs the plan's one iteration on a star (device d is node d + 1, every cable `bandwidth` bytes/s and
// `latency`), in the analytical fabric: a message of S bytes between two devices takes
// 2 latency + S / bandwidth (rounded up to a picosecond), its zero-byte acknowledgement 2 latency.
std::vector<DeviceFigures> run_plan(const boost::mpi::communicator& comm, const wl::TrainingPlan& plan,
                                    const rackscale::models::AcceleratorSpec& accelerator, double bandwidth,
                                    SimTime latency, const EngineFactory& collectives = {}) {
  const std::uint32_t n = plan.layout.devices();
  std::vector<rackscale::testing::Cable> cables;
  std::vector<net::NodeId> devices;
  for (net::NodeId d = 1; d <= n; ++d) {
    devices.push_back(d);
    cables.push_back({0, d, bandwidth, latency});
  }
  net::Topology topology = rackscale::testing::make_topology(n + 1, devices, cables);
  topology.router = std::make_unique<rackscale::testing::StarRouter>();
  const int ranks = comm.size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t node = 0; node < owner.size(); ++node)
    owner[node] = static_cast<std::int32_t>(node % static_cast<std::size_t>(ranks));
  pdes::Engine engine(comm, pdes::RankMap(owner, ranks), {});
  net::NetworkContext context(topology, net::NetworkSpec{});
  acc::CollectiveTallies tallies;
  std::vector<std::shared_ptr<const acc::ProgramIndex>> indexes;
  for (const auto& p : plan.programs) indexes.push_back(std::make_shared<acc::ProgramIndex>(p, accelerator));
  std::vector<acc::DeviceExecutor*> executors(n, nullptr);
  wl::GroupDirectory groups(plan.layout);
  net::add_network_lps(engine, context, [&](std::uint32_t d) {
    auto e = std::make_unique<acc::DeviceExecutor>(indexes[plan.layout.role_of(d)],
                                                   std::make_unique<wl::TrainingRole>(plan, groups, d),
                                                   collectives ? collectives() : std::make_unique<InstantCollectives>(),
                                                   tallies, 1);
    executors[d] = e.get();
    return e;
  });
  (void)engine.run(pdes::kNever);
  constexpr std::size_t kFields = 9;
  std::vector<std::uint64_t> mine(kFields * n, 0), all(kFields * n, 0);
  for (std::uint32_t d = 0; d < n; ++d) {
    if (executors[d] == nullptr) continue;
    const auto& s = executors[d]->stats();
    const auto& b = s.breakdown;
    const std::uint64_t fields[kFields] = {s.iteration_end.at(0), b.forward, b.backward, b.recompute, b.optimizer,
                                           b.other_compute, b.exposed_communication, b.pipeline_bubble, b.idle};
    for (std::size_t f = 0; f < kFields; ++f) mine[kFields * d + f] = fields[f];
  }
  pdes::reduce_to_all(comm, mine, all, pdes::Reduction::sum);
  std::vector<DeviceFigures> out(n);
  for (std::uint32_t d = 0; d < n; ++d) {
    const std::uint64_t* f = &all[kFields * d];
    out[d].end = f[0];
    out[d].breakdown = {f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]};
  }
  return out;
}

// The compute time of a program's compute ops of `phase` in micro-batch `micro_batch` (layer: only that
// layer's; kAny: all).
constexpr std::uint32_t kAny = 0xFFFFFFFEu;
SimTime compute_of(const acc::Program& program, const rackscale::models::AcceleratorSpec& a, acc::Phase phase,
                   std::uint32_t micro_batch, std::uint32_t layer = kAny) {
  SimTime t = 0;
  for (const acc::Op& op : program.ops)
    if (op.kind == acc::OpKind::compute && op.phase == phase && op.micro_batch == micro_batch &&
        (layer == kAny || op.layer == layer))
      t += acc::compute_time(a, op.cost);
  return t;
}

// The workload tests' small GPT with `layers` layers (each test sets its own batch).
wl::TrainingSpec small_model(std::uint32_t layers) {
  wl::TrainingSpec s = wl::test::small_gpt();
  s.model.layers = layers;
  return s;
}

net::ClusterSpec cluster_of(std::uint32_t devices) {
  net::ClusterSpec c;
  c.devices_per_node = devices;
  c.nodes = 1;
  c.accelerator = h100();
  return c;
}

void expect_same(const std::vector<DeviceFigures>& a, const std::vector<DeviceFigures>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t d = 0; d < a.size(); ++d) {
    EXPECT_EQ(a[d].end, b[d].end) << "device " << d;
    EXPECT_EQ(a[d].breakdown.compute(), b[d].breakdown.compute()) << "device " << d;
    EXPECT_EQ(a[d].breakdown.exposed_communication, b[d].breakdown.exposed_communication) << "device " << d;
    EXPECT_EQ(a[d].breakdown.pipeline_bubble, b[d].breakdown.pipeline_bubble) << "device " << d;
  }
}

}  // namespace

// 1F1B on uneven stages. A 7-layer model on P = 4 stages with first_stage_layers 1: the other three
// stages hold (7 - 1) / 3 = 2 layers each. m = 8 micro-batches, one device per stage.
//
// Per micro-batch, stage s computes f_s forward and b_s backward (read from its program: the sum of its
// ops' compute times): stage 0 one layer and the embedding, stages 1 and 2 two layers (f, b), stage 3
// two layers and the output layer (f_L, b_L), the heaviest (the logits of a 32,000-token vocabulary
// cost about two layers). A pipeline transfer takes x (2 latencies + its serialization); its
// acknowledgement never holds anything up here. Since every other stage's f + b is below f_L + b_L, the
// last stage never waits once it has started:
//   - micro-batch 0's activation reaches it at  t_L = f_0 + 2 f + 3 x  (its pipeline bubble: it has
//     nothing to do before);
//   - it then runs its m forwards and backwards back to back and ends them at  T = t_L + m (f_L + b_L);
//   - the last gradient walks back: stage s (< 3) ends its last backward at T + sum over the stages
//     s .. 2 of (x + their backward), i.e. stage 2 at T + x + b, stage 1 at T + 2 (x + b), stage 0 at
//     T + 2 (x + b) + x + b_0;
//   - each stage then runs its optimizer step (o_s) and ends its iteration.
// Every figure is a whole number of picoseconds, so the ends must match to the picosecond.
TEST(GeneratedTimelines, OneFOneBOnUnevenStagesWorkedByHand) {
  wl::TrainingSpec spec = small_model(7);
  spec.parallel.pipeline = 4;
  spec.parallel.first_stage_layers = 1;
  spec.parallel.global_batch = 8;
  const auto cluster = cluster_of(4);
  const wl::TrainingPlan plan = wl::build_training_plan(spec, cluster);
  const auto& a = cluster.accelerator;
  const std::uint32_t P = 4, m = 8;
  ASSERT_EQ(plan.layout.micro_batches(), m);
  ASSERT_EQ(plan.layout.stage_layers(0), 1u);
  ASSERT_EQ(plan.layout.stage_layers(1), 2u);

  std::vector<SimTime> f(P), b(P), o(P);
  for (std::uint32_t s = 0; s < P; ++s) {
    const acc::Program& p = plan.programs[s];
    f[s] = compute_of(p, a, acc::Phase::forward, 0);
    b[s] = compute_of(p, a, acc::Phase::backward, 0);
    o[s] = compute_of(p, a, acc::Phase::optimizer, 0);
    // Every micro-batch costs the same.
    for (std::uint32_t i = 1; i < m; ++i) {
      ASSERT_EQ(compute_of(p, a, acc::Phase::forward, i), f[s]);
      ASSERT_EQ(compute_of(p, a, acc::Phase::backward, i), b[s]);
    }
  }
  // The stages hold what the split says: stage 1 and 2 two layers (layers 1-2 and 3-4), stage 0 one layer
  // (layer 0) besides the embedding.
  const SimTime layer_forward = compute_of(plan.programs[1], a, acc::Phase::forward, 0, 1);
  EXPECT_EQ(f[1], 2 * layer_forward);
  EXPECT_EQ(f[2], f[1]);
  EXPECT_EQ(b[2], b[1]);
  EXPECT_EQ(compute_of(plan.programs[0], a, acc::Phase::forward, 0, 0), layer_forward);
  EXPECT_LT(f[0], f[1]);
  // The preconditions of the timeline above.
  const SimTime latency = 1'000;  // 1 ns per cable
  const double bandwidth = 1e12;  // 1 byte per ps: a 2 MiB activation takes 2.1 us
  const SimTime x = 2 * latency + net::serialization_time(wl::LayerCosts(plan.layout).pipeline_bytes(), bandwidth);
  for (std::uint32_t s = 0; s + 1 < P; ++s) ASSERT_LT(f[s] + b[s] + 2 * x, f[3] + b[3]) << s;

  const SimTime t_last = f[0] + 2 * f[1] + 3 * x;
  const SimTime T = t_last + m * (f[3] + b[3]);
  const std::vector<SimTime> expected_end{T + 2 * (x + b[1]) + x + b[0] + o[0], T + 2 * (x + b[1]) + o[1],
                                          T + x + b[2] + o[2], T + o[3]};

  const auto run = run_plan(self(), plan, a, bandwidth, latency);
  for (std::uint32_t s = 0; s < P; ++s) {
    SCOPED_TRACE(s);
    EXPECT_EQ(run[s].end, expected_end[s]);
    EXPECT_EQ(run[s].breakdown.compute(), m * (f[s] + b[s]) + o[s]);
  }
  EXPECT_EQ(run[3].breakdown.pipeline_bubble, t_last);
  expect_same(run_plan(world(), plan, a, bandwidth, latency), run);
}

// Ring attention, C = 4 devices of one CP group (no TP, PP or DP; 2 layers, 2 micro-batches). Each holds
// s_q = 256 of the 1,024 tokens; a key/value block (or its gradient) is S = 256 x 2 x 16 x 64 x 2 bytes =
// 1 MiB. A forward attention step (the local queries against 256 keys) takes c, a backward step c_b; a
// message of S bytes x_1 = 2 a + S / B, of 2S x_2 = 2 a + 2S / B; a send completes (and the next message
// of the ring may leave) 2 a after its data arrived, when the acknowledgement is back. Times from the
// start of a layer's ring (its QKV done; backward: its projection's backward done):
//
// Forward: message j leaves at j p (p = x_1 + 2 a) and arrives at j p + x_1; step 0 runs at once, step
// j > 0 at max(end of step j - 1, arrival of message j - 1).
//   Transfers longer (x_1 >= c_b): the steps wait x_1 - c, then p - c twice: E_f = 3 x_1 + 4 a - 3 c.
//   Transfers shorter (p <= c): every block is in before it is needed: E_f = 0.
// Backward: messages S, S, 2S, S, S (the blocks, then block + partial, then partials); message j leaves
// when step j - 1 has run and message j - 1 has arrived and been acknowledged; step j runs when step
// j - 1 has and message j - 1 has arrived; the QKV backward waits for message 4 (the returning partial).
//   Longer: step 1 starts at x_1; message 1 leaves at x_1 + 2a; step 2 at 2 x_1 + 2 a, message 2 leaves at
//   2 x_1 + 4 a; step 3 at 2 x_1 + 4 a + x_2, message 3 leaves at 2 x_1 + x_2 + 6 a; message 4 at
//   3 x_1 + x_2 + 8 a, arriving at 4 x_1 + x_2 + 8 a, against 4 c_b of compute: E_b = 4 x_1 + x_2 + 8 a - 4 c_b.
//   Shorter (x_2 + 2 a <= c_b): the steps run back to back; only the last message, sent after the last
//   step, is exposed: E_b = x_1.
// Exposed communication per device = layers x micro-batches x (E_f + E_b); nothing else waits.
TEST(GeneratedTimelines, RingAttentionExposesWhatTheStepsDoNotHide) {
  wl::TrainingSpec spec = small_model(2);
  spec.model.causal = false;  // every step the same work (causal step 0 is a little heavier)
  spec.parallel.context = 4;
  spec.parallel.global_batch = 2;
  const auto cluster = cluster_of(4);
  const wl::TrainingPlan plan = wl::build_training_plan(spec, cluster);
  const auto& a = cluster.accelerator;
  ASSERT_EQ(plan.layout.micro_batches(), 2u);
  const wl::LayerCosts costs(plan.layout);
  const std::uint64_t S = costs.kv_block_bytes();
  ASSERT_EQ(S, 1u << 20);
  const SimTime c = acc::compute_time(a, costs.attention(256, 1.0));
  const SimTime c_b = acc::compute_time(a, costs.attention_backward(costs.attention(256, 1.0)));
  const SimTime latency = 100;
  const std::uint64_t layer_steps = 2 * 2;  // layers x micro-batches

  struct Case {
    const char* name;
    double bandwidth;
    bool longer;
  };
  const double S_bytes = static_cast<double>(S);
  for (const Case& k : {Case{"transfers longer", S_bytes * 1e12 / (3.0 * static_cast<double>(c_b)), true},
                        Case{"transfers shorter", S_bytes * 1e12 / (static_cast<double>(c) / 8.0), false}}) {
    SCOPED_TRACE(k.name);
    const SimTime x1 = 2 * latency + net::serialization_time(S, k.bandwidth);
    const SimTime x2 = 2 * latency + net::serialization_time(2 * S, k.bandwidth);
    SimTime per_layer = 0;
    if (k.longer) {
      ASSERT_GE(x1, c_b);
      per_layer = (3 * x1 + 4 * latency - 3 * c) + (4 * x1 + x2 + 8 * latency - 4 * c_b);
    } else {
      ASSERT_LE(x1 + 2 * latency, c);
      ASSERT_LE(x2 + 2 * latency, c_b);
      per_layer = x1;
    }
    const auto run = run_plan(self(), plan, a, k.bandwidth, latency);
    for (std::uint32_t d = 0; d < 4; ++d) {
      SCOPED_TRACE(d);
      EXPECT_EQ(run[d].breakdown.exposed_communication, layer_steps * per_layer);
      EXPECT_EQ(run[d].breakdown.pipeline_bubble, 0u);
      EXPECT_EQ(run[d].breakdown.idle, 0u);
      EXPECT_EQ(run[d].end, run[d].breakdown.compute() + run[d].breakdown.exposed_communication);
    }
    expect_same(run_plan(world(), plan, a, k.bandwidth, latency), run);
  }
}

// ZeRO-3 on 2 devices (pure data parallelism, one micro-batch each) with DeepSpeed-style gather buckets of at
// least 4,000,000 elements, no prefetch and one stream for gathers and reduce-scatters: every gather waits
// for the compute before its first user and the compute waits for it, and in the backward pass each unit's
// reduce-scatter, issued after its backward, holds the next unit's first gather behind it on the stream.
// The small GPT with 2 layers, tied embeddings on one chunk: units embedding (32,768,000 elements), layers
// of 3 buckets (4,196,352, 4,196,352, 4,194,304; 12,587,008 in all), output layer (its norm, 2,048).
// Exposed communication = 2 x (sum of the gathers' ring times) + (sum of the units' reduce-scatters);
// nothing else waits, so the iteration is compute + that.
TEST(GeneratedTimelines, ZeroThreeBucketsWithoutPrefetchExposeEveryGather) {
  wl::TrainingSpec spec = small_model(2);
  spec.parallel.zero_stage = 3;
  spec.parallel.global_batch = 2;
  spec.stack.zero3_gather_elements = 4'000'000;
  spec.stack.zero3_prefetch = 0;
  spec.stack.zero3_streams = 1;
  const auto cluster = cluster_of(2);
  const wl::TrainingPlan plan = wl::build_training_plan(spec, cluster);
  const auto& a = cluster.accelerator;
  const SimTime latency = 1'000'000;  // 1 us per ring step
  const double bandwidth = 100e9;
  const auto ring = [&](std::uint64_t elements) {
    return RingTimeCollectives::ring_time(2 * elements, 2, latency, bandwidth);
  };
  const std::vector<std::uint64_t> gathers{32'768'000, 4'196'352, 4'196'352, 4'194'304,
                                           4'196'352,  4'196'352, 4'194'304, 2'048};
  const std::vector<std::uint64_t> units{32'768'000, 12'587'008, 12'587'008, 2'048};
  SimTime exposed = 0;
  for (const auto g : gathers) exposed += 2 * ring(g);
  for (const auto u : units) exposed += ring(u);
  SimTime compute = 0;
  for (const acc::Phase phase : {acc::Phase::forward, acc::Phase::backward, acc::Phase::optimizer})
    compute += compute_of(plan.programs[0], a, phase, 0);
  const auto factory = [&] { return std::make_unique<RingTimeCollectives>(latency, bandwidth); };
  const auto run = run_plan(self(), plan, a, bandwidth, 100, factory);
  for (std::uint32_t d = 0; d < 2; ++d) {
    SCOPED_TRACE(d);
    EXPECT_EQ(run[d].breakdown.exposed_communication, exposed);
    EXPECT_EQ(run[d].breakdown.compute(), compute);
    EXPECT_EQ(run[d].end, compute + exposed);
  }
  // With one gather of prefetch the forward's gathers hide behind the compute before their users
  // wherever that compute is longer: never more exposed than without.
  spec.stack.zero3_prefetch = 1;
  const auto prefetched = run_plan(self(), wl::build_training_plan(spec, cluster), a, bandwidth, 100, factory);
  EXPECT_LT(prefetched[0].breakdown.exposed_communication, exposed);
  expect_same(run_plan(world(), plan, a, bandwidth, 100, factory), run);
}
