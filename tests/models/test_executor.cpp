// The accelerator model running small hand-written programs: compute chains against the compute
// model's closed form, stream overlap, and pipeline transfers between devices on different ranks.
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "hand_topology.hpp"
#include "models/accelerator/compute_model.hpp"
#include "models/accelerator/device_executor.hpp"
#include "models/network/network_lps.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace acc = rackscale::models::accelerator;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }

rackscale::models::AcceleratorSpec a100() {
  rackscale::models::AcceleratorSpec a;
  a.name = "test-a100";
  a.peak_bf16_flops = 312e12;
  a.memory_bandwidth = 2.039e12;
  a.matmul_efficiency = 0.75;
  a.matmul_half_dimension = 128;
  a.memory_efficiency = 0.85;
  a.kernel_overhead = 1'000'000;
  return a;
}

// Every device runs `programs[device]`; the pipeline neighbours of device d are d - 1 and d + 1.
class TestRole final : public acc::DeviceRole {
 public:
  TestRole(const acc::Program& program, std::uint32_t device) : program_(program), device_(device) {}
  const acc::Program& program() const override { return program_; }
  void group(acc::GroupKind, std::vector<std::uint32_t>&, std::uint32_t&) const override {
    throw std::logic_error("no groups in this test");
  }
  std::uint32_t peer(acc::Peer peer, const acc::Op&) const override {
    return peer == acc::Peer::next_stage ? device_ + 1 : device_ - 1;
  }

 private:
  const acc::Program& program_;
  std::uint32_t device_;
};

class NoCollectives final : public rackscale::models::collectives::CollectiveEngine {
 public:
  void start(net::DeviceLp&, const rackscale::models::collectives::CollectiveCall&, Completion) override {
    throw std::logic_error("no collectives in this test");
  }
  void on_delivery(net::DeviceLp&, const net::Delivery&) override { throw std::logic_error("no collectives"); }
};

acc::Op gemm(std::uint32_t m, std::uint32_t n, std::uint32_t k, acc::Phase phase) {
  acc::Op op;
  op.kind = acc::OpKind::compute;
  op.phase = phase;
  op.cost.flops = 2.0 * m * n * k;
  op.cost.m = m;
  op.cost.n = n;
  op.cost.k = k;
  return op;
}

// Runs programs[d] on device d of a star of devices with 50 GB/s, 1 us links; returns each device's stats.
std::vector<acc::DeviceStats> run(const std::vector<acc::Program>& programs, std::uint32_t iterations) {
  const auto devices = static_cast<std::uint32_t>(programs.size());
  std::vector<rackscale::testing::Cable> cables;
  std::vector<net::NodeId> device_nodes;
  for (net::NodeId d = 1; d <= devices; ++d) {
    device_nodes.push_back(d);
    cables.push_back({0, d, 50e9, 500'000});
  }
  net::Topology topology = rackscale::testing::make_topology(devices + 1, device_nodes, cables);
  topology.router = std::make_unique<rackscale::testing::StarRouter>();
  const int ranks = world().size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t n = 0; n < owner.size(); ++n) owner[n] = static_cast<std::int32_t>(n % static_cast<std::size_t>(ranks));
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {});
  net::NetworkContext context(topology, net::NetworkSpec{});
  const auto spec = a100();
  acc::CollectiveTallies tallies;
  std::vector<std::shared_ptr<const acc::ProgramIndex>> indexes;
  for (const auto& p : programs) indexes.push_back(std::make_shared<acc::ProgramIndex>(p, spec));
  std::vector<acc::DeviceExecutor*> executors(devices, nullptr);
  net::add_network_lps(engine, context, [&](std::uint32_t d) {
    auto e = std::make_unique<acc::DeviceExecutor>(indexes[d], std::make_unique<TestRole>(programs[d], d),
                                                   std::make_unique<NoCollectives>(), tallies, iterations);
    executors[d] = e.get();
    return e;
  });
  (void)engine.run(pdes::kNever);
  // Gather every device's breakdown and last iteration end to all ranks (integers: exact).
  std::vector<acc::DeviceStats> out(devices);
  for (std::uint32_t d = 0; d < devices; ++d) {
    std::vector<std::uint64_t> mine(8 + iterations, 0), all(8 + iterations, 0);
    if (executors[d] != nullptr) {
      const auto& s = executors[d]->stats();
      const auto& b = s.breakdown;
      mine = {b.forward, b.backward, b.recompute, b.optimizer, b.other_compute, b.exposed_communication,
              b.pipeline_bubble, b.idle};
      for (const auto end : s.iteration_end) mine.push_back(end);
      mine.resize(8 + iterations, 0);
    }
    pdes::reduce_to_all(world(), mine, all, pdes::Reduction::sum);
    auto& b = out[d].breakdown;
    b = {all[0], all[1], all[2], all[3], all[4], all[5], all[6], all[7]};
    out[d].iteration_end.assign(all.begin() + 8, all.end());
  }
  return out;
}
}  // namespace

TEST(ComputeModel, RooflineWithShapeDependentEfficiency) {
  const auto a = a100();
  const acc::Op big = gemm(4096, 4096, 4096, acc::Phase::forward);
  const double efficiency = 0.75 * std::pow(4096.0 / (4096 + 128), 3);
  EXPECT_DOUBLE_EQ(acc::matmul_efficiency(a, big.cost), std::pow(4096.0 / 4224.0, 3));
  EXPECT_EQ(acc::compute_time(a, big.cost),
            1'000'000 + static_cast<SimTime>(std::llround(2.0 * 4096 * 4096 * 4096 / (312e12 * efficiency) * 1e12)));
  // A memory-bound op: 1 GB at 85% of 2.039 TB/s.
  acc::ComputeCost copy;
  copy.bytes = 1e9;
  copy.flops = 1e6;
  EXPECT_EQ(acc::compute_time(a, copy), 1'000'000 + static_cast<SimTime>(std::llround(1e9 / (2.039e12 * 0.85) * 1e12)));
  // FP8 runs at the FP8 peak where there is one, else at the BF16 peak.
  EXPECT_DOUBLE_EQ(acc::peak_flops(a, acc::DType::fp8), 312e12);
}

// Three matrix products in a row on one device, two iterations: each iteration takes their sum, all
// of it compute, none idle.
TEST(DeviceExecutor, ComputeChainTakesTheSumOfItsOps) {
  acc::Program p;
  p.role = "chain";
  const auto a = p.add(gemm(2048, 4096, 4096, acc::Phase::forward));
  const auto b = p.add(gemm(2048, 4096, 4096, acc::Phase::backward), {a});
  p.add(gemm(1024, 1024, 1024, acc::Phase::optimizer), {b});
  const auto stats = run({p, acc::Program{}}, 2);
  const auto spec = a100();
  SimTime one = 0;
  for (const auto& op : p.ops) one += acc::compute_time(spec, op.cost);
  EXPECT_EQ(stats[0].iteration_end, (std::vector<SimTime>{one, 2 * one}));
  EXPECT_EQ(stats[0].breakdown.compute(), 2 * one);
  EXPECT_EQ(stats[0].breakdown.forward, 2 * acc::compute_time(spec, p.ops[0].cost));
  EXPECT_EQ(stats[0].breakdown.total(), 2 * one);
}

// Device 0 computes for t, sends 1 MiB to device 1 and computes again; device 1 receives, then
// computes. Device 1's compute waits t + the transfer (2 hops of 0.5 us + 1 MiB at 50 GB/s): a
// pipeline bubble. Device 0's send completes when device 1 acknowledges (another 2 hops), but its
// second compute op does not depend on the send, so it runs at once: streams overlap.
TEST(DeviceExecutor, PipelineTransferAndStreamOverlap) {
  const acc::Op work = gemm(2048, 2048, 2048, acc::Phase::forward);
  acc::Program first;
  first.role = "stage 0";
  const auto f = first.add(work);
  acc::Op send;
  send.kind = acc::OpKind::send;
  send.stream = 1;
  send.peer = acc::Peer::next_stage;
  send.bytes = 1 << 20;
  send.match = 7;
  first.add(send, {f});
  first.add(work, {f});
  acc::Program second;
  second.role = "stage 1";
  acc::Op recv = send;
  recv.kind = acc::OpKind::recv;
  recv.peer = acc::Peer::previous_stage;
  const auto r = second.add(recv);
  second.add(work, {r});

  const auto stats = run({first, second}, 1);
  const SimTime t = acc::compute_time(a100(), work.cost);
  const SimTime transfer = 2 * 500'000 + net::serialization_time(1 << 20, 50e9);
  const SimTime ack = 2 * 500'000;
  EXPECT_EQ(stats[1].iteration_end.front(), t + transfer + t);
  EXPECT_EQ(stats[1].breakdown.pipeline_bubble, t + transfer);
  EXPECT_EQ(stats[1].breakdown.forward, t);
  // Device 0 finishes its second compute at 2t, its send at t + transfer + ack; whichever is later.
  EXPECT_EQ(stats[0].iteration_end.front(), std::max(2 * t, t + transfer + ack));
  EXPECT_EQ(stats[0].breakdown.forward, 2 * t);
}
