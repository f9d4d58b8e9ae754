// Pipeline schedules run by the accelerator model on uniform stages with instant transfers: the bubble
// of 1F1B is exactly (p - 1) / (m + p - 1) of every stage's iteration and that of the interleaved
// schedule (p - 1) / (v m + p - 1) (Narayanan et al. 2021, sections 2.2.1 and 2.2.2). The schedules are
// the training workload's own (models/workload/pipeline_schedule.hpp); the programs around them are
// built here so that every stage is exactly uniform.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "hand_topology.hpp"
#include "models/accelerator/device_executor.hpp"
#include "models/network/network_lps.hpp"
#include "models/workload/pipeline_schedule.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace acc = rackscale::models::accelerator;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }

// An accelerator on which a compute op of `bytes` bytes (and no FLOPs) takes exactly `bytes` ps.
rackscale::models::AcceleratorSpec byte_per_picosecond() {
  rackscale::models::AcceleratorSpec a;
  a.peak_bf16_flops = 1e15;
  a.memory_bandwidth = 1e12;
  a.memory_efficiency = 1.0;
  a.kernel_overhead = 0;
  return a;
}

acc::Op compute(SimTime duration, acc::Phase phase) {
  acc::Op op;
  op.kind = acc::OpKind::compute;
  op.phase = phase;
  op.cost.bytes = static_cast<double>(duration);
  op.cost.kernels = 0;
  return op;
}

acc::Op transfer(acc::OpKind kind, acc::Peer peer, std::uint32_t match) {
  acc::Op op;
  op.kind = kind;
  op.stream = kind == acc::OpKind::send ? 3 : 4;
  op.peer = peer;
  op.bytes = 1;
  op.match = match;
  return op;
}

// Stage s of P with V chunks per device, m micro-batches: a forward of one chunk takes tf, a backward tb.
// Chunk c of stage s is model chunk k = c P + s of K = P V; its activation for micro-batch i has match
// 2 (i K + k), the gradient sent back to it 2 (i K + k) + 1.
acc::Program stage_program(std::uint32_t P, std::uint32_t V, std::uint32_t m, std::uint32_t s, SimTime tf, SimTime tb) {
  acc::Program p;
  p.role = "stage";
  const std::uint32_t K = P * V;
  acc::OpIndex last_compute = 0;
  bool any = false;
  for (const auto& step : rackscale::models::workload::pipeline_schedule(P, V, m, s)) {
    const std::uint32_t k = step.virtual_stage * P + s;
    const std::uint32_t id = 2 * (step.micro_batch * K + k);
    std::vector<acc::OpIndex> deps;
    if (any) deps.push_back(last_compute);
    if (step.forward) {
      if (k > 0) deps.push_back(p.add(transfer(acc::OpKind::recv, acc::Peer::previous_stage, 2 * (step.micro_batch * K + k - 1))));
      last_compute = p.add(compute(tf, acc::Phase::forward), deps);
      if (k + 1 < K) p.add(transfer(acc::OpKind::send, acc::Peer::next_stage, id), {last_compute});
    } else {
      if (k + 1 < K) deps.push_back(p.add(transfer(acc::OpKind::recv, acc::Peer::next_stage, 2 * (step.micro_batch * K + k + 1) + 1)));
      last_compute = p.add(compute(tb, acc::Phase::backward), deps);
      if (k > 0) p.add(transfer(acc::OpKind::send, acc::Peer::previous_stage, id + 1), {last_compute});
    }
    any = true;
  }
  return p;
}

class RingRole final : public acc::DeviceRole {
 public:
  RingRole(const acc::Program& program, std::uint32_t device, std::uint32_t stages)
      : program_(program), device_(device), stages_(stages) {}
  const acc::Program& program() const override { return program_; }
  void group(acc::GroupKind, std::vector<std::uint32_t>&, std::uint32_t&) const override {
    throw std::logic_error("no groups");
  }
  std::uint32_t peer(acc::Peer peer, const acc::Op&) const override {
    return peer == acc::Peer::next_stage ? (device_ + 1) % stages_ : (device_ + stages_ - 1) % stages_;
  }

 private:
  const acc::Program& program_;
  std::uint32_t device_, stages_;
};

class NoCollectives final : public rackscale::models::collectives::CollectiveEngine {
 public:
  void start(net::DeviceLp&, const rackscale::models::collectives::CollectiveCall&, Completion) override {
    throw std::logic_error("no collectives");
  }
  void on_delivery(net::DeviceLp&, const net::Delivery&) override { throw std::logic_error("no collectives"); }
};

struct StageTimes {
  SimTime iteration = 0, bubble = 0, compute = 0;
};

// Runs P stages on a star of 1 ps links with effectively infinite bandwidth; returns each stage's figures.
std::vector<StageTimes> run_pipeline(std::uint32_t P, std::uint32_t V, std::uint32_t m, SimTime tf, SimTime tb) {
  std::vector<acc::Program> programs;
  for (std::uint32_t s = 0; s < P; ++s) programs.push_back(stage_program(P, V, m, s, tf, tb));
  std::vector<rackscale::testing::Cable> cables;
  std::vector<net::NodeId> devices;
  for (net::NodeId d = 1; d <= P; ++d) {
    devices.push_back(d);
    cables.push_back({0, d, 1e18, 1});
  }
  net::Topology topology = rackscale::testing::make_topology(P + 1, devices, cables);
  topology.router = std::make_unique<rackscale::testing::StarRouter>();
  const int ranks = world().size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = static_cast<std::int32_t>(n % static_cast<std::size_t>(ranks));
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {});
  net::NetworkContext context(topology, net::NetworkSpec{});
  const auto spec = byte_per_picosecond();
  acc::CollectiveTallies tallies;
  std::vector<std::shared_ptr<const acc::ProgramIndex>> indexes;
  for (const auto& p : programs) indexes.push_back(std::make_shared<acc::ProgramIndex>(p, spec));
  std::vector<acc::DeviceExecutor*> executors(P, nullptr);
  net::add_network_lps(engine, context, [&](std::uint32_t d) {
    auto e = std::make_unique<acc::DeviceExecutor>(indexes[d], std::make_unique<RingRole>(programs[d], d, P),
                                                   std::make_unique<NoCollectives>(), tallies, 1);
    executors[d] = e.get();
    return e;
  });
  (void)engine.run(pdes::kNever);
  std::vector<std::uint64_t> mine(3 * P, 0), all(3 * P, 0);
  for (std::uint32_t s = 0; s < P; ++s)
    if (executors[s] != nullptr) {
      const auto& st = executors[s]->stats();
      mine[3 * s] = st.iteration_end.at(0);
      mine[3 * s + 1] = st.breakdown.pipeline_bubble;
      mine[3 * s + 2] = st.breakdown.compute();
    }
  pdes::reduce_to_all(world(), mine, all, pdes::Reduction::sum);
  // The pipeline's iteration ends when its last stage does; a stage that finishes earlier waits for the
  // drain, which belongs to its bubble (the training run adds it the same way).
  SimTime end = 0;
  for (std::uint32_t s = 0; s < P; ++s) end = std::max<SimTime>(end, all[3 * s]);
  std::vector<StageTimes> out(P);
  for (std::uint32_t s = 0; s < P; ++s) out[s] = {end, all[3 * s + 1] + (end - all[3 * s]), all[3 * s + 2]};
  return out;
}
}  // namespace

// p = 4 stages, m = 8 micro-batches, forward 1 us and backward 2 us per stage: every stage computes for
// m (tf + tb) and idles (p - 1)(tf + tb), so its iteration is (m + p - 1)(tf + tb) and the bubble fraction
// (p - 1) / (m + p - 1) = 3/11. Each of the m + p - 1 steps of the critical path adds a transfer of a few
// picoseconds, hence the small tolerance.
TEST(PipelineBubble, OneFOneBBubbleIsPMinusOneOverMPlusPMinusOne) {
  const SimTime tf = 1'000'000, tb = 2'000'000;
  const std::uint32_t P = 4, m = 8;
  const auto stages = run_pipeline(P, 1, m, tf, tb);
  const SimTime tolerance = 100;  // ps: (m + p) transfers of ~3 ps
  for (std::uint32_t s = 0; s < P; ++s) {
    EXPECT_EQ(stages[s].compute, m * (tf + tb)) << "stage " << s;
    EXPECT_NEAR(static_cast<double>(stages[s].iteration), static_cast<double>((m + P - 1) * (tf + tb)), tolerance);
    EXPECT_NEAR(static_cast<double>(stages[s].bubble), static_cast<double>((P - 1) * (tf + tb)), tolerance) << s;
    EXPECT_NEAR(static_cast<double>(stages[s].bubble) / static_cast<double>(stages[s].iteration),
                double(P - 1) / double(m + P - 1), 5e-6);  // the same few ps over 33 us
  }
}

// Interleaved with v = 2 chunks per device, each chunk half a stage (tf / 2, tb / 2): the bubble shrinks
// to (p - 1)(tf + tb) / v and its fraction to (p - 1) / (v m + p - 1) = 3/19.
TEST(PipelineBubble, InterleavedBubbleIsPMinusOneOverVMPlusPMinusOne) {
  const SimTime tf = 1'000'000, tb = 2'000'000;
  const std::uint32_t P = 4, V = 2, m = 8;
  const auto stages = run_pipeline(P, V, m, tf / V, tb / V);
  const SimTime tolerance = 200;
  for (std::uint32_t s = 0; s < P; ++s) {
    EXPECT_EQ(stages[s].compute, m * (tf + tb)) << "stage " << s;
    EXPECT_NEAR(static_cast<double>(stages[s].bubble), static_cast<double>((P - 1) * (tf + tb) / V), tolerance) << s;
    EXPECT_NEAR(static_cast<double>(stages[s].bubble) / static_cast<double>(stages[s].iteration),
                double(P - 1) / double(V * m + P - 1), 1e-5);
  }
}
