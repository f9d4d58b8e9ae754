// Both network fidelities on small hand-built topologies, against closed forms worked out in the
// comments: one message over h hops, incast, and a ring on a non-blocking switch; on 1 and 2 ranks.
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "models/network/degraded_links.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/output_port.hpp"
#include "models/traffic/traffic_device.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"
#include "hand_topology.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace traffic = rackscale::models::traffic;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }
using rackscale::testing::Cable;
using rackscale::testing::LineRouter;
using rackscale::testing::make_topology;
using rackscale::testing::StarRouter;

struct Outcome {
  std::uint64_t delivered = 0;
  SimTime first = 0;  // earliest flow completion
  SimTime last = 0;   // latest flow completion
  std::uint64_t events = 0;  // handled, all ranks
};

// Runs a traffic pattern over the whole world, LPs placed in contiguous blocks of nodes.
Outcome run(const net::Topology& topology, const net::NetworkSpec& spec, const rackscale::models::TrafficSpec& pattern) {
  const int ranks = world().size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t n = 0; n < owner.size(); ++n)
    owner[n] = static_cast<std::int32_t>(n * static_cast<std::size_t>(ranks) / owner.size());
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {});
  net::NetworkContext context(topology, spec);
  const traffic::TrafficPlan plan(pattern, static_cast<std::uint32_t>(topology.device_count()), 1);
  traffic::TrafficStats stats;
  net::add_network_lps(engine, context, [&](std::uint32_t) { return std::make_unique<traffic::TrafficDevice>(plan, stats); });
  const pdes::EngineStats engine_stats = engine.run(pdes::kNever);
  Outcome out;
  out.events = boost::mpi::all_reduce(world(), engine_stats.events_processed, std::plus<std::uint64_t>());
  out.delivered = boost::mpi::all_reduce(world(), stats.completion.count(), std::plus<std::uint64_t>());
  out.first = pdes::min_over_ranks(world(), stats.completion.count() ? stats.completion.min() : pdes::kNever);
  out.last = pdes::max_over_ranks(world(), stats.completion.max());
  return out;
}

constexpr double kGBps = 1e9;
constexpr std::uint64_t kChunk = 64 * 1024;

// Device 0 - switch - switch - switch - device 1: h = 4 links with latencies 100..400 ns and a
// bottleneck of 25 GB/s on the third link (the others 50 GB/s).
net::Topology line() {
  net::Topology t = make_topology(5, {0, 4},
                                  {{0, 1, 50 * kGBps, 100'000}, {1, 2, 50 * kGBps, 200'000},
                                   {2, 3, 25 * kGBps, 300'000}, {3, 4, 50 * kGBps, 400'000}});
  t.router = std::make_unique<LineRouter>();
  return t;
}

rackscale::models::TrafficSpec ring(std::uint64_t bytes) {
  rackscale::models::TrafficSpec spec;
  spec.pattern = rackscale::models::TrafficPattern::ring;
  spec.bytes = bytes;
  return spec;
}
}  // namespace

// Analytical: sum of latencies + S / B_min = 1000 ns + 1 MiB / 25 GB/s.
TEST(Fabric, AnalyticalMessageOverFourHops) {
  const auto t = line();
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::analytical;
  const std::uint64_t bytes = 1 << 20;
  const Outcome out = run(t, spec, ring(bytes));
  const SimTime expected = 1'000'000 + net::serialization_time(bytes, 25 * kGBps);
  EXPECT_EQ(out.delivered, 2u);
  EXPECT_EQ(out.first, expected);
  EXPECT_EQ(out.last, expected);
}

// A cable at half its rate (cluster.degraded_links, degraded_links.hpp): the bottleneck's serialization
// doubles and the latencies stay, in both directions. Analytical: 1000 ns + S / 12.5 GB/s; cut-through
// chunks: 1000 ns + 16 ser(c, 12.5 GB/s). Degrading a 50 GB/s cable to 25 GB/s instead doubles its own
// serialization but leaves the time, whose bottleneck is still 25 GB/s.
TEST(Fabric, ADegradedLinkAtHalfRateDoublesALoneTransfersSerialization) {
  for (const auto fidelity : {net::Fidelity::analytical, net::Fidelity::chunk}) {
    auto t = line();
    const std::uint32_t third = t.port_id(2, 1);  // node 2 -> node 3, the 25 GB/s cable
    ASSERT_EQ(t.ports[third].peer, 3u);
    const net::DegradedLink half{third, 0.5};
    net::degrade_links(t, std::span(&half, 1));
    EXPECT_EQ(t.ports[third].bandwidth, 12.5 * kGBps);
    EXPECT_EQ(t.ports[net::reverse_port(t, third)].bandwidth, 12.5 * kGBps);
    net::NetworkSpec spec;
    spec.fidelity = fidelity;
    spec.chunk_bytes = kChunk;
    const Outcome out = run(t, spec, ring(16 * kChunk));
    const SimTime expected =
        1'000'000 + (fidelity == net::Fidelity::analytical ? net::serialization_time(16 * kChunk, 12.5 * kGBps)
                                                           : 16 * net::serialization_time(kChunk, 12.5 * kGBps));
    EXPECT_EQ(out.first, expected);
    EXPECT_EQ(out.last, expected);

    auto u = line();
    const net::DegradedLink first{u.port_id(0, 0), 0.5};
    net::degrade_links(u, std::span(&first, 1));
    const Outcome same = run(u, spec, ring(16 * kChunk));
    EXPECT_EQ(same.last, 1'000'000 + (fidelity == net::Fidelity::analytical
                                          ? net::serialization_time(16 * kChunk, 25 * kGBps)
                                          : 16 * net::serialization_time(kChunk, 25 * kGBps)));
  }
}

// Degraded links outside the topology or at a fraction outside [0, 1] are refused, naming the entry; so is
// a device's own cable down (no route remains: test_link_down.cpp).
TEST(Fabric, DegradedLinksOutOfRangeAreRefused) {
  auto t = line();
  const net::DegradedLink beyond{static_cast<std::uint32_t>(t.ports.size()), 0.5};
  EXPECT_THROW(net::degrade_links(t, std::span(&beyond, 1)), std::invalid_argument);
  for (const double fraction : {-0.5, 1.5}) {
    const net::DegradedLink outside{0, fraction};
    EXPECT_THROW(net::degrade_links(t, std::span(&outside, 1)), std::invalid_argument);
  }
  const net::DegradedLink down{0, 0.0};
  EXPECT_THROW(net::degrade_links(t, std::span(&down, 1)), std::invalid_argument);
}

// Cut-through chunks: the same as analytical when nothing contends, chunk by chunk:
// sum(l_i) + n * ser(c, B_min) for n = 16 whole chunks.
TEST(Fabric, CutThroughChunksMatchTheAnalyticalTimeWithoutContention) {
  const auto t = line();
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::chunk;
  spec.chunk_bytes = kChunk;
  const Outcome out = run(t, spec, ring(16 * kChunk));
  const SimTime expected = 1'000'000 + 16 * net::serialization_time(kChunk, 25 * kGBps);
  EXPECT_EQ(out.first, expected);
  EXPECT_EQ(out.last, expected);
}

// A last chunk shorter than the others: sum(l_i) + 15 ser(c) + ser(c / 4) at the bottleneck.
TEST(Fabric, CutThroughPartialLastChunk) {
  const auto t = line();
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::chunk;
  spec.chunk_bytes = kChunk;
  const Outcome out = run(t, spec, ring(15 * kChunk + kChunk / 4));
  EXPECT_EQ(out.last, 1'000'000 + 15 * net::serialization_time(kChunk, 25 * kGBps) +
                          net::serialization_time(kChunk / 4, 25 * kGBps));
}

// Each chunk costs one event per node it reaches before the destination, and the destination hears of
// a message once, when its last byte is in (kMessageComplete, from the node before it), whatever its
// number of chunks: n (h - 1) + 1 events for a message of n chunks over h links, against one event in
// analytical fidelity. Two messages (the ring of two devices) over 4 links: 2 n 3 events more than
// analytical, for n = 1 and 16 (the destination's own arrival event of before made it 2 (n 3 + 1)).
TEST(Fabric, AMessageCostsAnEventPerChunkAndNodeBeforeItsDestinationAndOneAtIt) {
  const auto t = line();
  for (const std::uint64_t chunks : {1u, 16u}) {
    net::NetworkSpec spec;
    spec.fidelity = net::Fidelity::analytical;
    const Outcome analytical = run(t, spec, ring(chunks * kChunk));
    for (const net::Forwarding forwarding : {net::Forwarding::cut_through, net::Forwarding::store_and_forward}) {
      spec.fidelity = net::Fidelity::chunk;
      spec.chunk_bytes = kChunk;
      spec.forwarding = forwarding;
      const Outcome chunked = run(t, spec, ring(chunks * kChunk));
      EXPECT_EQ(chunked.delivered, 2u);
      EXPECT_EQ(chunked.events - analytical.events, 2u * chunks * 3u) << chunks << " chunks";
    }
  }
}

// A zero-byte message (a credit, a synchronization) is one event after its path's latency in both
// fidelities: 1000 ns over the four hops, and as many events in chunk fidelity as in analytical.
TEST(Fabric, ZeroByteMessagesTakeThePathLatencyInOneEvent) {
  const auto t = line();
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::analytical;
  const Outcome analytical = run(t, spec, ring(0));
  for (const net::Forwarding forwarding : {net::Forwarding::cut_through, net::Forwarding::store_and_forward}) {
    spec.fidelity = net::Fidelity::chunk;
    spec.chunk_bytes = kChunk;
    spec.forwarding = forwarding;
    const Outcome chunked = run(t, spec, ring(0));
    EXPECT_EQ(chunked.delivered, 2u);
    EXPECT_EQ(chunked.first, 1'000'000);
    EXPECT_EQ(chunked.last, 1'000'000);
    EXPECT_EQ(chunked.events, analytical.events);
  }
  EXPECT_EQ(analytical.last, 1'000'000);
}

// Store-and-forward: a tandem of h servers with identical customers finishes the last of n after
// sum_i(l_i + ser_i) + (n - 1) max_i ser_i.
TEST(Fabric, StoreAndForwardPipelinesChunks) {
  const auto t = line();
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::chunk;
  spec.forwarding = net::Forwarding::store_and_forward;
  spec.chunk_bytes = kChunk;
  const SimTime fast = net::serialization_time(kChunk, 50 * kGBps);
  const SimTime slow = net::serialization_time(kChunk, 25 * kGBps);
  const Outcome out = run(t, spec, ring(16 * kChunk));
  EXPECT_EQ(out.last, 1'000'000 + 3 * fast + slow + 15 * slow);
}

namespace {
// A switch (node 0) with `devices` devices on 50 GB/s links of 250 ns (device -> switch) and 350 ns
// (switch -> device): cables are symmetric, so both directions get the cable's latency; we make them
// differ by routing through two cable classes... kept simple: one latency l for every cable.
net::Topology star(std::uint32_t devices, SimTime latency) {
  std::vector<net::NodeId> device_nodes;
  std::vector<Cable> cables;
  for (net::NodeId d = 1; d <= devices; ++d) {
    device_nodes.push_back(d);
    cables.push_back({0, d, 50 * kGBps, latency});
  }
  net::Topology t = make_topology(devices + 1, device_nodes, cables);
  t.router = std::make_unique<StarRouter>();
  return t;
}
}  // namespace

// Incast of N = 7 senders of S = 8 chunks each: the receiver's port serializes all N S bytes without
// a gap from the moment the first heads arrive, so the last message completes at 2 l + N S / B.
TEST(Fabric, IncastFinishesAtTotalBytesOverBandwidthPlusLatency) {
  const SimTime l = 300'000;
  const auto t = star(8, l);
  rackscale::models::TrafficSpec incast;
  incast.pattern = rackscale::models::TrafficPattern::incast;
  incast.bytes = 8 * kChunk;
  incast.receiver = 0;
  incast.senders = 7;
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::chunk;
  spec.chunk_bytes = kChunk;
  const Outcome chunked = run(t, spec, incast);
  EXPECT_EQ(chunked.delivered, 7u);
  EXPECT_EQ(chunked.last, 2 * l + 7 * 8 * net::serialization_time(kChunk, 50 * kGBps));
  // Without contention every sender would finish at 2 l + S / B.
  spec.fidelity = net::Fidelity::analytical;
  const Outcome analytical = run(t, spec, incast);
  EXPECT_EQ(analytical.last, 2 * l + net::serialization_time(8 * kChunk, 50 * kGBps));
}

// A ring on a non-blocking switch: every output port carries one flow, so every message completes
// at 2 l + S / B, exactly as without contention.
TEST(Fabric, RingOnANonBlockingSwitchHasNoQueueing) {
  const SimTime l = 200'000;
  const auto t = star(16, l);
  net::NetworkSpec spec;
  spec.fidelity = net::Fidelity::chunk;
  spec.chunk_bytes = kChunk;
  const Outcome out = run(t, spec, ring(32 * kChunk));
  const SimTime expected = 2 * l + 32 * net::serialization_time(kChunk, 50 * kGBps);
  EXPECT_EQ(out.delivered, 16u);
  EXPECT_EQ(out.first, expected);
  EXPECT_EQ(out.last, expected);
}
