// Collective algorithms against their closed forms, on 1 and 2 ranks (CTest runs this binary on each).
//
// Analytical fidelity with one channel and no pipelining reproduces the textbook alpha-beta costs
// exactly (to the picosecond: every expected time below is built from the same per-message terms,
// a + ceil(S * 1e12 / B) ps); chunk fidelity on a non-blocking fabric comes within a few percent of
// them for large messages. Also: the binary trees, ring layouts, the NCCL cost model and its choices,
// calls of 0 bytes or one member, messages that arrive before a member has started the call, results
// identical to a one-rank run, and NVLS (reduction and multicast in the NVSwitch): its closed forms, its
// port loads, its selection and its refusal on hardware without it.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/operations.hpp>
#include <gtest/gtest.h>

#include "../models/hand_topology.hpp"
#include "app/collective_run.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/collectives/bench_sizes.hpp"
#include "models/collectives/binary_tree.hpp"
#include "models/collectives/collective_bench_device.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/collectives/collective_report.hpp"
#include "models/collectives/cost_model.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/collectives/tree.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/output_port.hpp"
#include "models/workload/training_report.hpp"
#include "pdes/engine.hpp"
#include "pdes/error.hpp"
#include "pdes/rank_reduce.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace coll = rackscale::models::collectives;
using coll::Algorithm;
using coll::CollectiveKind;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

constexpr double kB = 50e9;          // star links, bytes/s
constexpr SimTime kLink = 250'000;   // star link latency: a = 2 x 250 ns device to device
constexpr SimTime kA = 2 * kLink;

SimTime ser(std::uint64_t bytes, double bandwidth) { return net::serialization_time(bytes, bandwidth); }

// p devices around one switch: every pair one switch hop apart, latency a = 2 l, bandwidth B.
net::Topology star(std::uint32_t p) {
  std::vector<net::NodeId> devices;
  std::vector<rackscale::testing::Cable> cables;
  for (net::NodeId d = 1; d <= p; ++d) {
    devices.push_back(d);
    cables.push_back({0, d, kB, kLink});
  }
  net::Topology t = rackscale::testing::make_topology(p + 1, devices, cables);
  t.router = std::make_unique<rackscale::testing::StarRouter>();
  return t;
}

// The star as a cluster: no scale-up fabric, so every device is its own domain.
net::ClusterSpec star_cluster(std::uint32_t p) {
  net::ClusterSpec c;
  c.nodes = p;
  c.devices_per_node = 1;
  c.nics_per_node = 1;
  c.nic.bandwidth = kB;
  return c;
}

// These tests check the algorithms' messages, so collectives always run as messages (never the
// closed form that network.collectives: automatic would pick in analytical fidelity).
// NICs of 50 GB/s and 600 ns on a 2-tier fat tree of radix-64 switches (50 GB/s ports, 300 ns) with
// 50 ns cables: the scale-out network of the multi-node cases below.
void add_test_fat_tree(net::ClusterSpec& c) {
  c.nic.bandwidth = 50e9;
  c.nic.latency = 600'000;
  c.scale_out.kind = net::ScaleOutKind::fat_tree;
  c.scale_out.switch_spec.radix = 64;
  c.scale_out.switch_spec.port_bandwidth = 50e9;
  c.scale_out.switch_spec.latency = 300'000;
  c.scale_out.cable_latency = 50'000;

}

net::NetworkSpec analytical() {
  net::NetworkSpec s;
  s.collectives = net::CollectiveModel::messages;
  return s;
}
net::NetworkSpec chunks() {
  net::NetworkSpec s;
  s.collectives = net::CollectiveModel::messages;
  s.fidelity = net::Fidelity::chunk;
  s.chunk_bytes = 64 * 1024;
  s.routing = net::RoutingMode::spray;
  return s;
}

coll::CollectiveOptions plain() {  // one channel, no pipelining
  coll::CollectiveOptions o;
  o.channels = 1;
  o.piece_bytes = 0;
  return o;
}

std::vector<std::uint32_t> first(std::uint32_t n) {
  std::vector<std::uint32_t> m(n);
  for (std::uint32_t i = 0; i < n; ++i) m[i] = i;
  return m;
}

struct Outcome {
  SimTime start = pdes::kNever;
  SimTime end = 0;
  std::uint64_t completed = 0;
  Algorithm algorithm = Algorithm::automatic;
  // Port counters summed over ranks, by Topology port id.
  std::vector<std::uint64_t> port_bytes, port_busy, port_messages;
  SimTime time() const { return end - start; }
};

// Runs one call; LPs in contiguous blocks over the communicator's ranks.
Outcome run(const net::ClusterSpec& cluster, const net::Topology& topology, const net::NetworkSpec& spec,
            const coll::CollectiveCall& call, const coll::CollectiveOptions& options,
            const boost::mpi::communicator& comm = world()) {
  const int ranks = comm.size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t r = 0; r < topology.racks.size(); ++r)
    for (std::uint32_t i = 0; i < topology.racks[r].node_count; ++i)
      owner[topology.racks[r].first_node + i] =
          static_cast<std::int32_t>(r * static_cast<std::size_t>(ranks) / topology.racks.size());
  pdes::Engine engine(comm, pdes::RankMap(owner, ranks), {});
  net::NetworkContext context(topology, spec);
  coll::BenchStats stats;
  coll::CollectiveCall shared = call;  // the rank's devices set their rank in it as they start
  net::add_network_lps(engine, context, [&](std::uint32_t) {
    return std::make_unique<coll::CollectiveBenchDevice>(coll::make_collective_engine(cluster, topology, options),
                                                         shared, stats);
  });
  (void)engine.run(pdes::kNever);
  Outcome out;
  out.start = pdes::min_over_ranks(comm, stats.first_start);
  out.end = pdes::max_over_ranks(comm, stats.last_end);
  out.completed = boost::mpi::all_reduce(comm, stats.completed, std::plus<std::uint64_t>());
  out.algorithm = static_cast<Algorithm>(
      boost::mpi::all_reduce(comm, static_cast<int>(stats.algorithm), boost::mpi::maximum<int>()));
  const auto sum = [&](const std::vector<std::uint64_t>& mine, std::vector<std::uint64_t>& total) {
    total.assign(mine.size(), 0);
    pdes::reduce_to_all(comm, mine, total, pdes::Reduction::sum);
  };
  sum(context.counters.bytes(), out.port_bytes);
  sum(context.counters.busy(), out.port_busy);
  sum(context.counters.chunks(), out.port_messages);
  return out;
}

coll::CollectiveCall call_of(CollectiveKind kind, Algorithm algorithm, std::uint64_t bytes, std::uint32_t p) {
  coll::CollectiveCall c;
  c.kind = kind;
  c.algorithm = algorithm;
  c.bytes = bytes;
  c.members = first(p);
  c.key = 7;
  return c;
}

Outcome on_star(CollectiveKind kind, Algorithm algorithm, std::uint64_t bytes, std::uint32_t p,
                const coll::CollectiveOptions& options = plain(), const net::NetworkSpec& spec = analytical()) {
  const net::Topology t = star(p);
  return run(star_cluster(p), t, spec, call_of(kind, algorithm, bytes, p), options);
}
}  // namespace

// ---- the trees --------------------------------------------------------------------------------------

// Both trees of every size are spanning trees whose links agree from both ends, at most ceil(log2 n)
// deep below the root, and every rank is an inner node of at most one of them.
TEST(BinaryTree, BothTreesSpanEveryRankAndShareTheWork) {
  for (std::uint32_t n = 1; n <= 130; ++n) {
    std::vector<int> inner(n, 0);
    for (std::uint32_t tree = 0; tree < 2; ++tree) {
      std::uint32_t roots = 0;
      for (std::uint32_t r = 0; r < n; ++r) {
        const coll::TreeLinks links = coll::double_binary_tree(n, r, tree);
        if (links.parent == coll::kNoRank) {
          ++roots;
        } else {
          const coll::TreeLinks up = coll::double_binary_tree(n, links.parent, tree);
          EXPECT_TRUE(up.children[0] == r || up.children[1] == r) << "n " << n << " tree " << tree << " rank " << r;
        }
        for (const std::uint32_t c : links.children)
          if (c != coll::kNoRank) {
            ASSERT_LT(c, n);
            EXPECT_EQ(coll::double_binary_tree(n, c, tree).parent, r) << "n " << n << " tree " << tree;
          }
        if (links.children[0] != coll::kNoRank) ++inner[r];
        // Depth: walk to the root.
        std::uint32_t depth = 0;
        for (std::uint32_t at = r; coll::double_binary_tree(n, at, tree).parent != coll::kNoRank; ++depth) {
          at = coll::double_binary_tree(n, at, tree).parent;
          ASSERT_LE(depth, n);
        }
        EXPECT_LE(depth, static_cast<std::uint32_t>(std::bit_width(n - 1))) << "n " << n << " rank " << r;
      }
      EXPECT_EQ(roots, 1u) << "n " << n << " tree " << tree;
    }
    if (n > 1 && n % 2 == 0) {
      for (std::uint32_t r = 0; r < n; ++r) EXPECT_LE(inner[r], 1) << "n " << n << " rank " << r;
    }
  }
  // NCCL's shape for 8 ranks: 0 -> 4 -> {2, 6}, 2 -> {1, 3}, 6 -> {5, 7}.
  EXPECT_EQ(coll::binary_tree(8, 0).children[0], 4u);
  EXPECT_EQ(coll::binary_tree(8, 4).children[0], 2u);
  EXPECT_EQ(coll::binary_tree(8, 4).children[1], 6u);
  EXPECT_EQ(coll::binary_tree(8, 7).parent, 6u);
  EXPECT_EQ(coll::double_binary_tree(8, 7, 1).children[0], 3u);  // the mirror's root is 7
}

// ---- layouts ----------------------------------------------------------------------------------------

// 3 domains of 4: ring positions and members are inverse, and each channel leaves domain n from the
// local index it enters domain n + 1 with, a different one per channel.
TEST(MemberLayout, RingsStayOnRailsAndUseEveryNic) {
  net::ClusterSpec c;
  c.nodes = 3;
  c.devices_per_node = 4;
  c.scale_up.kind = net::ScaleUpKind::nvswitch;
  c.scale_up.domain_devices = 4;
  const auto members = first(12);
  const coll::MemberLayout layout = coll::analyse_members(c, members);
  ASSERT_EQ(layout.per_domain, 4u);
  ASSERT_EQ(layout.domains, 3u);
  for (std::uint32_t ch = 0; ch < 4; ++ch) {
    std::set<std::uint32_t> seen;
    for (std::uint32_t r = 0; r < 12; ++r) {
      EXPECT_EQ(layout.ring_member(layout.ring_position(r, ch), ch), r);
      seen.insert(layout.ring_position(r, ch));
    }
    EXPECT_EQ(seen.size(), 12u);
    for (std::uint32_t n = 0; n + 1 < 3; ++n) {
      const std::uint32_t exit = layout.ring_member(n * 4 + 3, ch), entry = layout.ring_member(n * 4 + 4, ch);
      EXPECT_EQ(layout.local_index(exit), layout.local_index(entry)) << "channel " << ch;
      EXPECT_EQ(layout.local_index(exit), (ch + 3 - n) % 4) << "channel " << ch;
    }
  }
  // Out of domain order, or uneven: every member its own domain.
  const std::vector<std::uint32_t> shuffled{4, 5, 0, 1};
  EXPECT_EQ(coll::analyse_members(c, shuffled).per_domain, 1u);
  EXPECT_EQ(coll::analyse_members(c, shuffled).distinct_domains, 2u);
  const std::vector<std::uint32_t> uneven{0, 1, 2, 4, 5};
  EXPECT_EQ(coll::analyse_members(c, uneven).per_domain, 1u);
}

// ---- closed forms, analytical, one channel, no pipelining ------------------------------------------

// Ring all-reduce: 2 (p - 1) steps of a + (S / p) / B.
TEST(Collectives, RingAllReduceIsTwoTimesPMinusOneSteps) {
  for (const std::uint32_t p : {2u, 3u, 8u, 13u}) {
    const std::uint64_t S = 3 * 1024 * 1024 * std::uint64_t{p};
    const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::ring, S, p);
    EXPECT_EQ(out.completed, p);
    EXPECT_EQ(out.algorithm, Algorithm::ring);
    EXPECT_EQ(out.time(), 2 * (p - 1) * (kA + ser(S / p, kB))) << "p " << p;
  }
}

TEST(Collectives, RingReduceScatterAndAllGatherArePMinusOneSteps) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 64 << 20;
  for (const CollectiveKind kind : {CollectiveKind::reduce_scatter, CollectiveKind::all_gather}) {
    const Outcome out = on_star(kind, Algorithm::ring, S, p);
    EXPECT_EQ(out.completed, p);
    EXPECT_EQ(out.time(), (p - 1) * (kA + ser(S / p, kB)));
  }
}

// Rabenseifner: 2 log2 p steps of a, moving S/2, S/4, ..., S/p each way.
TEST(Collectives, HalvingDoublingAllReduce) {
  for (const std::uint32_t p : {2u, 4u, 16u}) {
    const std::uint64_t S = 16 << 20;
    const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::halving_doubling, S, p);
    EXPECT_EQ(out.algorithm, Algorithm::halving_doubling);
    SimTime expected = 0;
    for (std::uint64_t m = S / 2; m >= S / p; m /= 2) expected += 2 * (kA + ser(m, kB));
    EXPECT_EQ(out.time(), expected) << "p " << p;
  }
  // Reduce-scatter alone: the halving half.
  const Outcome rs = on_star(CollectiveKind::reduce_scatter, Algorithm::halving_doubling, 16 << 20, 8);
  EXPECT_EQ(rs.algorithm, Algorithm::halving_doubling);
  EXPECT_EQ(rs.time(), 3 * kA + ser(8 << 20, kB) + ser(4 << 20, kB) + ser(2 << 20, kB));
}

// p = 6, not a power of two: ranks 0 and 2 fold into 1 and 3 (a + S/B) and get the result back at the
// end (a + S/B); ranks 4 and 5 start their first exchange at once, so the first exchange of 1 and 3,
// after the fold, sets the pace; then the four run Rabenseifner (4 a + 2 (3/4) S / B), except that rank
// 1's second exchange waits on its port for its first send to finish.
TEST(Collectives, HalvingDoublingFoldsTheRemainderAsMpichDoes) {
  const std::uint64_t S = 8 << 20;
  const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::halving_doubling, S, 6);
  EXPECT_EQ(out.completed, 6u);
  EXPECT_EQ(out.algorithm, Algorithm::halving_doubling);
  const SimTime rabenseifner = 4 * kA + 2 * (ser(S / 2, kB) + ser(S / 4, kB));
  EXPECT_GE(out.time(), 2 * (kA + ser(S, kB)) + rabenseifner);
  EXPECT_LE(out.time(), 2 * (kA + ser(S, kB)) + rabenseifner + ser(S / 2, kB));
  // Reduce-scatter over 6 members has no halving-doubling: it runs as a ring.
  EXPECT_EQ(on_star(CollectiveKind::reduce_scatter, Algorithm::halving_doubling, S, 6).algorithm, Algorithm::ring);
}

// Double binary tree, p = 2^k, each tree S / 2 (g = S / (2 B)): k hops up, k hops down, and a second
// child served g after the first: T = 2 k (a + g) + (k - 1) g. Derived in models/collectives/tree.hpp.
TEST(Collectives, DoubleBinaryTreeAllReduce) {
  for (const std::uint32_t k : {1u, 2u, 3u, 4u}) {
    const std::uint32_t p = 1u << k;
    const std::uint64_t S = 32 << 20;
    const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::tree, S, p);
    EXPECT_EQ(out.algorithm, Algorithm::tree);
    EXPECT_EQ(out.completed, p);
    const SimTime g = ser(S / 2, kB);
    EXPECT_EQ(out.time(), 2 * k * (kA + g) + (k - 1) * g) << "p " << p;
  }
}

// Broadcast as a chain from the root, reduce as the same chain the other way round (from the root's
// successor to the root): (p - 1) hops; with P pieces the chain pipelines: (p - 1) a + (p + P - 2) S /
// (P B). The root may be any member. Every member sends S once but the chain's tail: for a broadcast the
// root's predecessor, for a reduce the root.
TEST(Collectives, BroadcastAndReduceChainsPipeline) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 8 << 20;
  const net::Topology t = star(p);
  for (const CollectiveKind kind : {CollectiveKind::broadcast, CollectiveKind::reduce}) {
    SCOPED_TRACE(rackscale::models::workload::collective_name(kind));
    auto call = call_of(kind, Algorithm::automatic, S, p);
    call.root = 5;
    const Outcome whole = run(star_cluster(p), t, analytical(), call, plain());
    EXPECT_EQ(whole.completed, p);
    EXPECT_EQ(whole.algorithm, Algorithm::ring);
    EXPECT_EQ(whole.time(), (p - 1) * (kA + ser(S, kB)));
    const std::uint32_t tail = kind == CollectiveKind::broadcast ? 4 : 5;
    for (std::uint32_t r = 0; r < p; ++r)
      EXPECT_EQ(whole.port_bytes[t.port_id(t.devices[r], 0)], r == tail ? 0 : S) << "member " << r;
    coll::CollectiveOptions pieces = plain();
    pieces.piece_bytes = S / 16;
    pieces.max_pieces = 16;
    const Outcome piped = run(star_cluster(p), t, analytical(), call, pieces);
    EXPECT_EQ(piped.completed, p);
    EXPECT_EQ(piped.time(), (p - 1) * kA + (p + 16 - 2) * ser(S / 16, kB));
  }
}

// Staggered pairwise all-to-all: the sender's port sends its p - 1 parts back to back, and every
// receiver hears from one sender at a time: a + (p - 1) S / (p B), the same in both fidelities.
TEST(Collectives, AllToAllIsOneLatencyPlusTheSendersBytes) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 8 << 20;
  const Outcome a = on_star(CollectiveKind::all_to_all, Algorithm::automatic, S, p);
  EXPECT_EQ(a.time(), kA + (p - 1) * ser(S / p, kB));
  EXPECT_EQ(a.algorithm, Algorithm::ring);
  const Outcome c = on_star(CollectiveKind::all_to_all, Algorithm::automatic, S, p, plain(), chunks());
  EXPECT_EQ(c.completed, p);
  EXPECT_NEAR(static_cast<double>(c.time()), static_cast<double>(a.time()), 0.01 * static_cast<double>(a.time()));
}

// Messages that come far ahead of their turn: on a star whose device 0 hangs on a link 1,000 times
// slower, every receiver's message from device 0 is the last to come in, and device 1 hears it at its
// step 0, after the p - 2 of its later steps (more than the 64 a piece keeps as bits; the rest wait in a
// set). Device 0's port is the last to finish: p - 1 parts of S / p at the slow rate, a + (p - 1) S / (p
// B_slow). The call completes on every member only if no early message is lost.
TEST(Collectives, AllToAllTakesMessagesThatComeFarAheadOfTheirTurn) {
  const std::uint32_t p = 80;
  const std::uint64_t S = std::uint64_t{p} << 16;
  const double slow = kB / 1000;
  std::vector<net::NodeId> devices;
  std::vector<rackscale::testing::Cable> cables;
  for (net::NodeId d = 1; d <= p; ++d) {
    devices.push_back(d);
    cables.push_back({0, d, d == 1 ? slow : kB, kLink});
  }
  net::Topology t = rackscale::testing::make_topology(p + 1, devices, cables);
  t.router = std::make_unique<rackscale::testing::StarRouter>();
  const Outcome out = run(star_cluster(p), t, analytical(), call_of(CollectiveKind::all_to_all, Algorithm::ring, S, p),
                          plain());
  EXPECT_EQ(out.completed, p);
  EXPECT_EQ(out.time(), kA + (p - 1) * ser(S / p, slow));
}

// Scatter: the root's port sends the p - 1 parts back to back, in the order of NCCL's point-to-point
// rounds (the member after the root first): a + (p - 1) S / (p B), the last part's arrival.
TEST(Collectives, ScatterIsTheRootsPortSendingEveryPart) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 8 << 20;
  auto call = call_of(CollectiveKind::scatter, Algorithm::tree, S, p);
  call.root = 3;
  const net::Topology t = star(p);
  const Outcome out = run(star_cluster(p), t, analytical(), call, plain());
  EXPECT_EQ(out.completed, p);
  EXPECT_EQ(out.algorithm, Algorithm::ring);  // one way only, whatever is asked for
  EXPECT_EQ(out.time(), kA + (p - 1) * ser(S / p, kB));
  EXPECT_EQ(out.port_bytes[t.port_id(t.devices[3], 0)], (p - 1) * (S / p));
  EXPECT_EQ(out.port_messages[t.port_id(t.devices[3], 0)], p - 1);
  // Chunk fidelity: the same port, the same time (cut-through chunks add nothing without contention).
  const Outcome c = run(star_cluster(p), t, chunks(), call, plain());
  EXPECT_EQ(c.completed, p);
  EXPECT_NEAR(static_cast<double>(c.time()), static_cast<double>(out.time()), 0.01 * static_cast<double>(out.time()));
}

// Gather: every member sends its part to the root at once. In chunk fidelity the root's port takes them
// one after another (incast, docs/network.md): 2 l + (p - 1) S / (p B) = a + (p - 1) S / (p B), the
// scatter's time mirrored. Analytical fidelity has no receiver-side queue, so as messages the parts
// arrive together: a + S / (p B) (the closed form, analytical's default, counts the root's port).
TEST(Collectives, GatherIsBoundByTheRootsPortInChunkFidelity) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 8 << 20;
  auto call = call_of(CollectiveKind::gather, Algorithm::automatic, S, p);
  call.root = 6;
  const net::Topology t = star(p);
  const Outcome c = run(star_cluster(p), t, chunks(), call, plain());
  EXPECT_EQ(c.completed, p);
  const SimTime incast = kA + (p - 1) * ser(S / p, kB);
  EXPECT_NEAR(static_cast<double>(c.time()), static_cast<double>(incast), 0.01 * static_cast<double>(incast));
  EXPECT_GE(c.time(), incast - 2 * ser(64 << 10, kB));
  // The root's link from the switch (the star's port root - 1) carries every other member's part.
  const net::NodeId root = t.devices[6];
  EXPECT_EQ(c.port_bytes[t.port_id(0, static_cast<net::PortIndex>(root - 1))], (p - 1) * (S / p));
  const Outcome a = run(star_cluster(p), t, analytical(), call, plain());
  EXPECT_EQ(a.completed, p);
  EXPECT_EQ(a.time(), kA + ser(S / p, kB));
}

// Sendrecv: each member sends S to the next and receives S from the previous, all at once: a + S / B,
// for a pair as for a ring of 8.
TEST(Collectives, SendRecvIsOneHopOfTheWholeBuffer) {
  const std::uint64_t S = 8 << 20;
  for (const std::uint32_t p : {2u, 8u}) {
    const Outcome out = on_star(CollectiveKind::sendrecv, Algorithm::automatic, S, p);
    EXPECT_EQ(out.completed, p);
    EXPECT_EQ(out.time(), kA + ser(S, kB)) << "p " << p;
    const net::Topology t = star(p);
    for (std::uint32_t r = 0; r < p; ++r) EXPECT_EQ(out.port_bytes[t.port_id(t.devices[r], 0)], S) << "member " << r;
  }
}

// A root that is not a member is refused before anything runs.
TEST(Collectives, RootOutsideTheMembersIsRefused) {
  for (const CollectiveKind kind : {CollectiveKind::broadcast, CollectiveKind::reduce, CollectiveKind::gather,
                                    CollectiveKind::scatter}) {
    auto call = call_of(kind, Algorithm::automatic, 1 << 20, 4);
    call.root = 4;
    EXPECT_THROW((void)coll::plan_call(star_cluster(4), call, plain()), std::invalid_argument);
  }
}

// Channels and pipelining do not create bandwidth in analytical fidelity: the sender's pacing keeps a
// device's messages one after another on its port, so 4 channels x 8 pieces of a ring all-reduce take
// at least the one-channel bandwidth time and little more than its latency beyond.
TEST(Collectives, AnalyticalPacingKeepsChannelsFromMultiplyingBandwidth) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 256 << 20;
  coll::CollectiveOptions many;
  many.channels = 4;
  many.piece_bytes = 1 << 20;
  many.max_pieces = 8;
  const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::ring, S, p, many);
  const SimTime bandwidth_term = 2 * (p - 1) * ser(S / p, kB);
  EXPECT_GE(out.time(), bandwidth_term);
  EXPECT_LE(out.time(), bandwidth_term + 2 * (p - 1) * kA + 32 * ser(S / p / 32, kB));
}

// Hierarchical on 4 nodes of 8 (NVSwitch, then one leaf switch for all 32 NICs):
// 2 (L - 1) (a1 + S / (L B1)) + 2 (N - 1) (a2 + S / (L N B2)).
TEST(Collectives, HierarchicalAllReduceOnTwoLevels) {
  net::ClusterSpec c;
  c.nodes = 4;
  c.devices_per_node = 8;
  c.nodes_per_rack = 4;
  c.nics_per_node = 8;
  c.scale_up = {net::ScaleUpKind::nvswitch, 8, 450e9, 1.0, 500'000, {}};
  add_test_fat_tree(c);
  const net::Topology t = net::build_topology(c, net::RoutingMode::ecmp);
  const SimTime a1 = 500'000, a2 = 600'000 + 2 * 50'000 + 300'000;
  const std::uint64_t S = 32 * 3 << 20;  // divisible by L N = 32
  const Outcome out = run(c, t, analytical(), call_of(CollectiveKind::all_reduce, Algorithm::hierarchical, S, 32), plain());
  EXPECT_EQ(out.algorithm, Algorithm::hierarchical);
  EXPECT_EQ(out.completed, 32u);
  EXPECT_EQ(out.time(), 2 * 7 * (a1 + ser(S / 8, 450e9)) + 2 * 3 * (a2 + ser(S / 32, 50e9)));
  // Inside one domain there is no hierarchy: a ring.
  EXPECT_EQ(run(c, t, analytical(), call_of(CollectiveKind::all_reduce, Algorithm::hierarchical, S, 8), plain()).algorithm,
            Algorithm::ring);
}

// ---- chunk fidelity ------------------------------------------------------------------------------------

// 1 GiB ring all-reduce over 8 devices of a non-blocking star, in 64 KiB chunks with the default
// channels and pieces: within 5 % of the analytical closed form (cut-through chunks add no time
// without contention; what remains is the pipelining of pieces).
TEST(Collectives, ChunkModeLargeRingAllReduceMatchesTheAnalyticalTime) {
  const std::uint32_t p = 8;
  const std::uint64_t S = 1ULL << 30;
  const Outcome out = on_star(CollectiveKind::all_reduce, Algorithm::ring, S, p, {}, chunks());
  EXPECT_EQ(out.completed, p);
  const double closed = static_cast<double>(2 * (p - 1) * (kA + ser(S / p, kB)));
  EXPECT_NEAR(static_cast<double>(out.time()), closed, 0.05 * closed);
}

// Every algorithm with the default channels and pieces in chunk mode on a 2-node H100-like cluster,
// identical to a run on this rank alone; and within 10 % of the same run in analytical fidelity when
// the NICs share one leaf switch. (Through spines, random per-chunk spraying collides at spine ports
// and chunk mode runs 15-50 % slower than the contention-free analytical time: a property of the
// fabric, see docs/performance.md "Spraying granularity".)
TEST(Collectives, ChunkModeIsIdenticalOnAnyRankCount) {
  net::ClusterSpec c;
  c.nodes = 2;
  c.devices_per_node = 8;
  c.nodes_per_rack = 1;
  c.nics_per_node = 8;
  c.scale_up = {net::ScaleUpKind::nvswitch, 8, 450e9, 1.0, 500'000, {}};
  add_test_fat_tree(c);  // radix 64: one leaf for all 16 NICs, see below
  const net::Topology t = net::build_topology(c, net::RoutingMode::spray);
  for (const Algorithm a : {Algorithm::ring, Algorithm::tree, Algorithm::halving_doubling, Algorithm::hierarchical}) {
    const auto call = call_of(CollectiveKind::all_reduce, a, 64 << 20, 16);
    const Outcome mine = run(c, t, chunks(), call, {}, self());
    const Outcome all = run(c, t, chunks(), call, {});
    EXPECT_EQ(all.completed, 16u);
    EXPECT_EQ(all.algorithm, a);
    EXPECT_EQ(all.start, mine.start);
    EXPECT_EQ(all.end, mine.end) << "algorithm " << static_cast<int>(a);
    const Outcome fast = run(c, t, analytical(), call, {});
    EXPECT_NEAR(static_cast<double>(fast.time()), static_cast<double>(all.time()), 0.10 * static_cast<double>(all.time()))
        << "algorithm " << static_cast<int>(a);
  }
}

// ---- the tree's flow control -------------------------------------------------------------------------

namespace {
// Records what a call state sends, in order.
class RecordingOutbox final : public coll::Outbox {
 public:
  struct Sent {
    std::uint32_t dst;
    std::uint64_t bytes;
    std::uint32_t index;
    bool operator==(const Sent&) const = default;
  };
  void send(net::DeviceLp&, std::uint32_t dst, std::uint64_t bytes, std::uint32_t, std::uint32_t index) override {
    sent_.push_back({dst, bytes, index});
  }
  void reduce_in_switch(net::DeviceLp&, std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t) override {
    ADD_FAILURE() << "a tree reduces in no switch";
  }
  void multicast(net::DeviceLp&, const net::MulticastGroup&, std::uint64_t, std::uint32_t) override {
    ADD_FAILURE() << "a tree multicasts nothing";
  }
  void signal(net::DeviceLp&, std::uint32_t, std::uint32_t, SimTime) override {
    ADD_FAILURE() << "a tree sends no held signals";
  }
  void wake_at(net::DeviceLp&, SimTime) override { ADD_FAILURE() << "a tree sets no timers"; }
  std::vector<Sent> take() { return std::exchange(sent_, {}); }

 private:
  std::vector<Sent> sent_;
};

// Message index of one channel (channel 0) with P pieces: (phase) P + k; phases 0 reduce data, 1
// broadcast data, 2 reduce credit, 3 broadcast credit.
constexpr std::uint32_t kP = 6;
constexpr std::uint64_t kPiece = 1 << 20;
constexpr std::uint32_t up(std::uint32_t k) { return k; }
constexpr std::uint32_t down(std::uint32_t k) { return kP + k; }
constexpr std::uint32_t up_credit(std::uint32_t k) { return 2 * kP + k; }
constexpr std::uint32_t down_credit(std::uint32_t k) { return 3 * kP + k; }

coll::TreeMachine tree_member(std::uint32_t parent, std::vector<std::uint32_t> children, std::uint32_t window) {
  coll::TreeChannel ch;
  ch.parent = parent;
  for (const std::uint32_t c : children) ch.add_child(c);
  return coll::TreeMachine({ch}, kP * kPiece, kP, window);
}
}  // namespace

// One channel, P = 6 pieces of 1 MiB, a window of W = 2 (NCCL's 4 MiB buffer over 2 MiB pieces, say). A
// sender has at most W pieces that its receiver has not passed on; each passed-on piece returns a
// zero-byte credit, but only the first P - W of a connection, the ones its sender waits for. Without the
// window (the old behaviour) a leaf posts all its pieces at once.
TEST(TreeFlowControl, SendersStayWithinTheirWindow) {
  const net::Topology t = star(16);
  net::NetworkContext context(t, analytical());
  net::DeviceLp device(t.devices[0], context, nullptr);
  using S = RecordingOutbox::Sent;
  RecordingOutbox out;

  // A leaf (parent 5): pieces 0 and 1 at once, then one more per credit.
  coll::TreeMachine leaf = tree_member(5, {}, 2);
  leaf.begin(device, out);
  EXPECT_EQ(out.take(), (std::vector<S>{{5, kPiece, up(0)}, {5, kPiece, up(1)}}));
  leaf.receive(device, out, 5, up_credit(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{5, kPiece, up(2)}}));
  for (std::uint32_t k = 1; k < 4; ++k) leaf.receive(device, out, 5, up_credit(k));
  EXPECT_EQ(out.take(), (std::vector<S>{{5, kPiece, up(3)}, {5, kPiece, up(4)}, {5, kPiece, up(5)}}));
  // The broadcast comes down: credits for pieces 0 .. P - W - 1 only.
  for (std::uint32_t k = 0; k < kP; ++k) leaf.receive(device, out, 5, down(k));
  EXPECT_EQ(out.take(), (std::vector<S>{{5, 0, down_credit(0)}, {5, 0, down_credit(1)}, {5, 0, down_credit(2)},
                                        {5, 0, down_credit(3)}}));
  EXPECT_TRUE(leaf.finished());

  // An inner node (parent 9, children 3 and 4): piece k goes up once both children's have come and the
  // parent has room, and passing it up frees the children's slots.
  coll::TreeMachine inner = tree_member(9, {3, 4}, 2);
  inner.begin(device, out);
  EXPECT_TRUE(out.take().empty());
  inner.receive(device, out, 3, up(0));
  EXPECT_TRUE(out.take().empty());
  inner.receive(device, out, 4, up(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{9, kPiece, up(0)}, {3, 0, up_credit(0)}, {4, 0, up_credit(0)}}));
  for (const std::uint32_t child : {3u, 4u}) inner.receive(device, out, child, up(1));
  EXPECT_EQ(out.take(), (std::vector<S>{{9, kPiece, up(1)}, {3, 0, up_credit(1)}, {4, 0, up_credit(1)}}));
  for (const std::uint32_t child : {3u, 4u}) inner.receive(device, out, child, up(2));
  EXPECT_TRUE(out.take().empty());  // two pieces outstanding at the parent
  inner.receive(device, out, 9, up_credit(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{9, kPiece, up(2)}, {3, 0, up_credit(2)}, {4, 0, up_credit(2)}}));
  // Down: each child has its own window; the parent's slot is freed once both children have the piece.
  inner.receive(device, out, 9, down(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{3, kPiece, down(0)}, {4, kPiece, down(0)}, {9, 0, down_credit(0)}}));
  inner.receive(device, out, 9, down(1));
  inner.receive(device, out, 9, down(2));
  EXPECT_EQ(out.take(), (std::vector<S>{{3, kPiece, down(1)}, {4, kPiece, down(1)}, {9, 0, down_credit(1)}}));
  inner.receive(device, out, 3, down_credit(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{3, kPiece, down(2)}}));
  inner.receive(device, out, 4, down_credit(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{4, kPiece, down(2)}, {9, 0, down_credit(2)}}));

  // The root (children 1 and 2) passes a reduced piece on downwards, and only then frees the children's
  // reduce slots.
  coll::TreeMachine root = tree_member(coll::kNoPeer, {1, 2}, 2);
  root.begin(device, out);
  root.receive(device, out, 1, up(0));
  root.receive(device, out, 2, up(0));
  EXPECT_EQ(out.take(), (std::vector<S>{{1, kPiece, down(0)}, {2, kPiece, down(0)}, {1, 0, up_credit(0)},
                                        {2, 0, up_credit(0)}}));

  // Unbounded (window 0): every piece of a leaf at once, and no credits anywhere.
  coll::TreeMachine flood = tree_member(5, {}, 0);
  flood.begin(device, out);
  EXPECT_EQ(out.take().size(), kP);
  for (std::uint32_t k = 0; k < kP; ++k) flood.receive(device, out, 5, down(k));
  EXPECT_TRUE(out.take().empty());
  EXPECT_TRUE(flood.finished());
}

namespace {
// `nodes` HGX-like nodes of 8 devices: NVSwitch at 450 GB/s (500 ns device to device), a 50 GB/s NIC per
// device (600 ns), and a 2-tier fat tree of `radix`-port switches.
net::ClusterSpec tree_cluster(std::uint32_t nodes, std::uint32_t radix) {
  net::ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = 8;
  c.nodes_per_rack = 1;
  c.nics_per_node = 8;
  c.scale_up = {net::ScaleUpKind::nvswitch, 8, 450e9, 1.0, 500'000, {}};
  add_test_fat_tree(c);
  c.scale_out.switch_spec.radix = radix;
  return c;
}
}  // namespace

// 1 GiB tree all-reduce over 4 nodes of 8 whose 32 NICs share one leaf switch (non-blocking), default
// channels (8 pairs, one per NIC) and pieces (32 of 2 MiB per channel). The busiest NIC (the head of a
// domain that is an inner node of one tree and a leaf of the other) sends 4 pieces per piece index, 4 x
// 32 x 2 MiB in all; before its first send the chain must bring piece 0 up 7 NVLink hops, and after its
// last the data needs one NIC latency and 7 hops down a chain. Lower bound:
//   L = 7 h + 128 g + a2 + 7 h,   h = 500 ns + 2 MiB / 450 GB/s,  g = 2 MiB / 50 GB/s,  a2 = 1 us.
// Analytical fidelity comes within 10 % of it (flow control keeps the chain's NVLink traffic from
// delaying the NICs: without it, 37 % above), and chunk fidelity within 5 % of analytical.
TEST(Collectives, PipelinedTreeAllReduceReachesTheNicBound) {
  const net::ClusterSpec c = tree_cluster(4, 64);
  const net::Topology t = net::build_topology(c, net::RoutingMode::spray);
  const std::uint64_t S = 1ULL << 30, piece = 2 << 20;
  const auto call = call_of(CollectiveKind::all_reduce, Algorithm::tree, S, 32);
  const SimTime h = 500'000 + ser(piece, 450e9), a2 = 600'000 + 2 * 50'000 + 300'000;
  const double L = static_cast<double>(14 * h + 128 * ser(piece, 50e9) + a2);
  const Outcome fast = run(c, t, analytical(), call, {});
  EXPECT_EQ(fast.completed, 32u);
  EXPECT_GE(static_cast<double>(fast.time()), L);
  EXPECT_LE(static_cast<double>(fast.time()), 1.10 * L);
  net::NetworkSpec spec = chunks();
  spec.chunk_bytes = 4 << 20;  // a piece per chunk: cut-through adds nothing without contention
  const Outcome chunked = run(c, t, spec, call, {});
  EXPECT_EQ(chunked.completed, 32u);
  EXPECT_NEAR(static_cast<double>(chunked.time()), static_cast<double>(fast.time()),
              0.05 * static_cast<double>(fast.time()));
}

// Where the tree's flows share fat-tree links, chunk fidelity is slower than analytical for a reason the
// closed forms and analytical fidelity leave out: 8 nodes of 8, NIC i of node n on leaf n of a 2-tier
// tree of radix 16 (8 leaves, 8 spines), 256 MiB by tree (16 channels of 32 pieces of 512 KiB, one chunk
// each). ECMP hashes each channel's flow onto one spine, and some leaf-spine link carries more than any
// NIC: its bytes over its bandwidth bound the chunk-fidelity time from below, while analytical fidelity
// (no link contention) finishes before that. Spraying each chunk on its own path spreads the load again.
TEST(Collectives, EcmpCollisionsBoundTheTreeOnAFatTree) {
  const net::ClusterSpec c = tree_cluster(8, 16);
  const std::uint64_t S = 256ULL << 20;
  const auto call = call_of(CollectiveKind::all_reduce, Algorithm::tree, S, 64);
  net::NetworkSpec closed = analytical();
  closed.collectives = net::CollectiveModel::closed_form;
  net::NetworkSpec ecmp = chunks();
  ecmp.routing = net::RoutingMode::ecmp;
  ecmp.chunk_bytes = 512 << 10;
  net::NetworkSpec spray = ecmp;
  spray.routing = net::RoutingMode::spray;
  const net::Topology by_flow = net::build_topology(c, net::RoutingMode::ecmp);
  const net::Topology by_chunk = net::build_topology(c, net::RoutingMode::spray);

  // The ECMP load of every port, as the call's messages route (a closed-form call charges exactly that).
  const Outcome load = run(c, by_flow, closed, call, {});
  SimTime nic = 0, hot = 0;
  for (std::uint32_t port = 0; port < by_flow.ports.size(); ++port) {
    const net::LinkClass cls = by_flow.ports[port].link_class;
    if (cls == net::LinkClass::nic) nic = std::max<SimTime>(nic, load.port_busy[port]);
    if (cls == net::LinkClass::leaf_spine) hot = std::max<SimTime>(hot, load.port_busy[port]);
  }
  EXPECT_EQ(nic, 128 * ser(512 << 10, 50e9));  // 4 pieces per index through the busiest NIC
  ASSERT_GE(static_cast<double>(hot), 1.5 * static_cast<double>(nic)) << "ECMP spread this case evenly";

  const Outcome fast = run(c, by_flow, analytical(), call, {});
  const Outcome flows = run(c, by_flow, ecmp, call, {});
  const Outcome sprayed = run(c, by_chunk, spray, call, {});
  EXPECT_EQ(flows.completed, 64u);
  EXPECT_EQ(sprayed.completed, 64u);
  EXPECT_LT(fast.time(), hot);
  EXPECT_GE(flows.time(), hot);
  // Sprayed one-chunk messages take paths of their own (with the chunk's index in its message alone as
  // entropy, every chunk 0 of a flow took the flow's ECMP path and spraying changed nothing).
  EXPECT_LT(static_cast<double>(sprayed.time()), 0.85 * static_cast<double>(flows.time()));
  EXPECT_LT(sprayed.time(), hot);
}

// ---- edge cases ------------------------------------------------------------------------------------

namespace {
// Starts the call on member r at time r x 3 us, so that earlier members' messages reach later ones
// before those have started.
class LateStarter final : public net::DeviceBehaviour {
 public:
  LateStarter(std::unique_ptr<coll::CollectiveEngine> engine, const coll::CollectiveCall& call, coll::BenchStats& stats)
      : engine_(std::move(engine)), call_(call), stats_(stats) {}
  void start(net::DeviceLp& device) override {
    if (device.device() < call_.members.size()) device.schedule(device.device() * 3'000'000ULL, 100);
  }
  void on_event(net::DeviceLp& device, const pdes::Event& event) override {
    if (event.kind == coll::kCollectiveTimerKind) return engine_->on_timer(device, event);
    coll::CollectiveCall mine = call_;
    mine.rank = device.device();
    engine_->start(device, mine, [this](const coll::CallRecord& r) {
      stats_.last_end = std::max(stats_.last_end, r.end);
      ++stats_.completed;
    });
  }
  void on_delivery(net::DeviceLp& device, const net::Delivery& d) override { engine_->on_delivery(device, d); }

 private:
  std::unique_ptr<coll::CollectiveEngine> engine_;
  const coll::CollectiveCall& call_;
  coll::BenchStats& stats_;
};
}  // namespace

TEST(Collectives, MessagesArrivingBeforeStartAreKept) {
  const std::uint32_t p = 8;
  const net::Topology t = star(p);
  const net::ClusterSpec cluster = star_cluster(p);
  for (const Algorithm a : {Algorithm::ring, Algorithm::tree, Algorithm::halving_doubling}) {
    const auto call = call_of(CollectiveKind::all_reduce, a, 1 << 20, p);
    std::vector<std::int32_t> owner(t.nodes.size(), 0);
    for (std::size_t n = 0; n < owner.size(); ++n)
      owner[n] = static_cast<std::int32_t>(n * static_cast<std::size_t>(world().size()) / owner.size());
    pdes::Engine engine(world(), pdes::RankMap(owner, world().size()), {});
    net::NetworkContext context(t, analytical());
    coll::BenchStats stats;
    net::add_network_lps(engine, context, [&](std::uint32_t) {
      return std::make_unique<LateStarter>(coll::make_collective_engine(cluster, t), call, stats);
    });
    (void)engine.run(pdes::kNever);
    EXPECT_EQ(boost::mpi::all_reduce(world(), stats.completed, std::plus<std::uint64_t>()), p);
    // The last member starts at 21 us; nobody can finish before.
    EXPECT_GE(pdes::max_over_ranks(world(), stats.last_end), 21'000'000u);
  }
}

// A closed-form call's protocol (closed_form.hpp) with members starting at r x 3 us on a star, where every
// pair of devices is the same latency a = 2 kLink apart: every member ends at the last start (21 us) plus
// the call's formula time T, and the call costs p - 1 arrivals at the leader, p - 1 releases (each held
// until its member's end) and the leader's own timer: 2 (p - 1) + 1 events besides the p start events.
TEST(ClosedForm, EveryMemberEndsAtTheLastStartPlusItsTimeInTwoEvents) {
  const std::uint32_t p = 8;
  const net::Topology t = star(p);
  const net::ClusterSpec cluster = star_cluster(p);
  const auto call = call_of(CollectiveKind::all_reduce, Algorithm::ring, 1 << 20, p);
  const SimTime T = coll::time_closed_form(cluster, call).duration;
  ASSERT_GT(T, 2 * kA) << "the releases would not be held";
  std::vector<std::int32_t> owner(t.nodes.size(), 0);
  for (std::size_t n = 0; n < owner.size(); ++n)
    owner[n] = static_cast<std::int32_t>(n * static_cast<std::size_t>(world().size()) / owner.size());
  pdes::Engine engine(world(), pdes::RankMap(owner, world().size()), {});
  net::NetworkSpec closed = analytical();
  closed.collectives = net::CollectiveModel::closed_form;
  net::NetworkContext context(t, closed);
  std::vector<coll::BenchStats> stats(p);
  net::add_network_lps(engine, context, [&](std::uint32_t device) {
    return std::make_unique<LateStarter>(coll::make_collective_engine(cluster, t), call, stats[device]);
  });
  const pdes::EngineStats run = engine.run(pdes::kNever);
  std::vector<std::uint64_t> ends(p), all_ends(p);
  for (std::uint32_t d = 0; d < p; ++d) ends[d] = stats[d].last_end;
  pdes::reduce_to_all(world(), ends, all_ends, pdes::Reduction::max);
  for (std::uint32_t d = 0; d < p; ++d) EXPECT_EQ(all_ends[d], 21'000'000u + T) << "member " << d;
  EXPECT_EQ(boost::mpi::all_reduce(world(), run.events_processed, std::plus<std::uint64_t>()),
            p + 2 * (p - 1) + 1);
}

TEST(Collectives, EmptyAndOneMemberCallsCompleteAtOnce) {
  const Outcome empty = on_star(CollectiveKind::all_reduce, Algorithm::automatic, 0, 4);
  EXPECT_EQ(empty.completed, 4u);
  EXPECT_EQ(empty.time(), 0u);
  const Outcome alone = on_star(CollectiveKind::all_gather, Algorithm::ring, 1 << 20, 1);
  EXPECT_EQ(alone.completed, 1u);
  EXPECT_EQ(alone.time(), 0u);
}

// ---- NCCL's cost model ---------------------------------------------------------------------------------

namespace {
net::ClusterSpec h100_nodes(std::uint32_t nodes) {
  net::ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = 8;
  c.nics_per_node = 8;
  c.nic.bandwidth = 50e9;
  c.scale_up = {net::ScaleUpKind::nvswitch, 8, 450e9, 1.0, 500'000, {}};
  c.scale_out.kind = net::ScaleOutKind::fat_tree;
  c.scale_out.switch_spec.port_bandwidth = 50e9;
  return c;
}

coll::FabricFigures figures(std::uint32_t nodes) {
  const auto c = h100_nodes(nodes);
  return coll::fabric_figures(c, coll::analyse_members(c, first(nodes * 8)));
}
}  // namespace

TEST(CostModel, FiguresAndPredictionsFollowTuningCc) {
  const coll::FabricFigures one = figures(1);
  EXPECT_EQ(one.domains, 1u);
  EXPECT_EQ(one.ranks_per_domain, 8u);
  EXPECT_DOUBLE_EQ(one.bus_bandwidth, 450e9);
  const coll::FabricFigures two = figures(2);
  EXPECT_EQ(two.domains, 2u);
  EXPECT_DOUBLE_EQ(two.bus_bandwidth, 400e9);  // 8 NICs of 50 GB/s under 450 GB/s of NVLink
  // 1 GiB ring all-reduce on one node, Simple: 8.4 + 14 x 3.4 us + S / (450 GB/s x 8 / 14).
  const auto ring = coll::predict(CollectiveKind::all_reduce, Algorithm::ring, 1ULL << 30, one);
  EXPECT_EQ(ring.protocol, coll::Protocol::simple);
  EXPECT_NEAR(ring.seconds, (8.4 + 14 * 3.4) * 1e-6 + 1073741824.0 / (450e9 * 8 / 14), 1e-12);
  // 8 bytes: LL, 6.6 + 14 x 0.6 us.
  const auto tiny = coll::predict(CollectiveKind::all_reduce, Algorithm::ring, 8, one);
  EXPECT_EQ(tiny.protocol, coll::Protocol::ll);
  EXPECT_NEAR(tiny.seconds, (6.6 + 14 * 0.6) * 1e-6 + 8 / (450e9 / 4 * 8 / 14), 1e-12);
  // Tree on 2 nodes, LL: 6.8 + 2 (7 x 0.6 + 1 x 5.0) us.
  const auto tree = coll::predict(CollectiveKind::all_reduce, Algorithm::tree, 8, two);
  EXPECT_NEAR(tree.seconds, (6.8 + 2 * (7 * 0.6 + 5.0)) * 1e-6 + 8 / (400e9 * 0.92 / 3.8 / 2), 1e-12);
}

// NCCL's choices: across nodes tree for small messages and ring for large ones at 2 nodes; tree even
// for 1 GiB at 512 nodes, where the ring's 8,190 steps of latency dominate.
TEST(CostModel, ChoosesAsNcclDoes) {
  for (std::uint64_t s = 8; s <= (8ULL << 30); s *= 2) {
    // One node: ring, except where LL128's lower tree latency (2 x 7 x 1.25 us against 14 x 1.9 us)
    // outweighs its lower bandwidth (x 0.92 x 7/9 / 2 against x 0.92 x 8/14): 2-4 MiB.
    const bool tree_window = s >= (2u << 20) && s <= (4u << 20);
    EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_reduce, s, figures(1)).algorithm,
              tree_window ? Algorithm::tree : Algorithm::ring)
        << s;
    // Two nodes: tree up to 32 MiB, ring from 64 MiB.
    EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_reduce, s, figures(2)).algorithm,
              s <= (32u << 20) ? Algorithm::tree : Algorithm::ring)
        << s;
  }
  EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_reduce, 1ULL << 30, figures(512)).algorithm, Algorithm::tree);
  EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_gather, 1024, figures(2)).algorithm, Algorithm::ring);
  // And the engine records what it chose.
  const auto c = h100_nodes(2);
  EXPECT_EQ(coll::plan_call(c, call_of(CollectiveKind::all_reduce, Algorithm::automatic, 1024, 16), {}).algorithm,
            Algorithm::tree);
}

// The closed forms of the ops outside NCCL's all-reduce family, by hand from tuning.cc's constants (us:
// ring base 8.4 Simple; per step 3.4 over NVLink, 14 over the network): 1 GiB, where Simple wins.
// Broadcast and reduce: nRanks steps and algbw = B (NCCL's ring moves the whole buffer over each link).
// Point-to-point ops: a step per round, and the busiest member's ports: inside one node (n - 1) / n S over
// NVLink; across two nodes 8 / 16 S through its NIC (50 GB/s) outweighs 7 / 16 S over NVLink; sendrecv
// S over the slower of the two.
TEST(CostModel, RootedAndPointToPointOpsByHand) {
  const double S = 1ULL << 30;
  const auto seconds = [](CollectiveKind kind, const coll::FabricFigures& f) {
    const auto p = coll::predict(kind, Algorithm::ring, 1ULL << 30, f);
    EXPECT_EQ(p.protocol, coll::Protocol::simple);
    return p.seconds;
  };
  const coll::FabricFigures one = figures(1), two = figures(2);
  for (const CollectiveKind kind : {CollectiveKind::broadcast, CollectiveKind::reduce}) {
    EXPECT_NEAR(seconds(kind, one), (8.4 + 8 * 3.4) * 1e-6 + S / 450e9, 1e-12);
    EXPECT_NEAR(seconds(kind, two), (8.4 + 15 * 3.4 + 14.0) * 1e-6 + S / 400e9, 1e-12);
  }
  for (const CollectiveKind kind : {CollectiveKind::gather, CollectiveKind::scatter, CollectiveKind::all_to_all}) {
    EXPECT_NEAR(seconds(kind, one), (8.4 + 7 * 3.4) * 1e-6 + 7.0 / 8 * S / 450e9, 1e-12);
    EXPECT_NEAR(seconds(kind, two), (8.4 + 14 * 3.4 + 14.0) * 1e-6 + 8.0 / 16 * S / 50e9, 1e-12);
  }
  EXPECT_NEAR(seconds(CollectiveKind::sendrecv, one), (8.4 + 3.4) * 1e-6 + S / 450e9, 1e-12);
  EXPECT_NEAR(seconds(CollectiveKind::sendrecv, two), (8.4 + 14.0) * 1e-6 + S / 50e9, 1e-12);
  // 8 bytes of sendrecv in one node: LL, 6.6 + 0.6 us, and a third of the link (not all-reduce, one domain).
  const auto tiny = coll::predict(CollectiveKind::sendrecv, Algorithm::ring, 8, one);
  EXPECT_EQ(tiny.protocol, coll::Protocol::ll);
  EXPECT_NEAR(tiny.seconds, (6.6 + 0.6) * 1e-6 + 8 / (450e9 / 3), 1e-12);
  // Each runs one way, recorded as ring, whatever is asked for.
  const auto c = h100_nodes(2);
  for (const CollectiveKind kind : {CollectiveKind::reduce, CollectiveKind::gather, CollectiveKind::scatter,
                                    CollectiveKind::sendrecv})
    EXPECT_EQ(coll::plan_call(c, call_of(kind, Algorithm::tree, 1 << 20, 16), {}).algorithm, Algorithm::ring);
}

// nccl-tests' sizes: -b 8 -e 64 -f 2 gives 8 .. 64; -i steps by bytes; the last step stops at max (and
// before it would wrap); a floats all-gather of 16 ranks counts whole parts of 16 floats per row.
TEST(BenchSizes, SweepsAndBuffersAsNcclTests) {
  EXPECT_EQ(coll::sweep_sizes(8, 64, 2, 0, 100), (std::vector<std::uint64_t>{8, 16, 32, 64}));
  EXPECT_EQ(coll::sweep_sizes(8, 100, 4, 0, 100), (std::vector<std::uint64_t>{8, 32}));
  EXPECT_EQ(coll::sweep_sizes(1 << 20, 3 << 20, 1, 1 << 20, 100),
            (std::vector<std::uint64_t>{1 << 20, 2 << 20, 3 << 20}));
  EXPECT_EQ(coll::sweep_sizes(5, 5, 2, 0, 100), (std::vector<std::uint64_t>{5}));
  const std::uint64_t top = ~std::uint64_t{0};
  EXPECT_EQ(coll::sweep_sizes(top - 1, top, 2, 0, 100).size(), 1u);
  EXPECT_EQ(coll::sweep_sizes(top - 3, top, 1, 2, 100), (std::vector<std::uint64_t>{top - 3, top - 1}));
  EXPECT_THROW((void)coll::sweep_sizes(8, 1 << 20, 1, 8, 100), std::invalid_argument);  // too many sizes
  EXPECT_THROW((void)coll::sweep_sizes(16, 8, 2, 0, 100), std::invalid_argument);

  using coll::DataType;
  struct Case {
    CollectiveKind op;
    std::uint64_t size;
    DataType type;
    std::uint64_t count, bytes;
  };
  const Case cases[] = {
      {CollectiveKind::all_reduce, 1000, DataType::float32, 250, 1000},
      {CollectiveKind::all_reduce, 1001, DataType::float32, 250, 1000},
      {CollectiveKind::broadcast, 1000, DataType::float64, 125, 1000},
      {CollectiveKind::sendrecv, 7, DataType::bfloat16, 3, 6},
      {CollectiveKind::all_gather, 32, DataType::float32, 0, 0},  // 8 floats over 16 ranks: no whole part
      {CollectiveKind::all_gather, 64, DataType::float32, 1, 64},
      {CollectiveKind::reduce_scatter, 1000, DataType::float32, 15, 960},
      {CollectiveKind::all_to_all, 1000, DataType::int8, 62, 992},
      {CollectiveKind::gather, 1 << 20, DataType::half, 32768, 1 << 20},
      {CollectiveKind::scatter, 100, DataType::uint64, 0, 0},
  };
  for (const Case& c : cases) {
    const coll::BenchBuffer b = coll::bench_buffer(c.op, c.size, c.type, 16);
    EXPECT_EQ(b.count, c.count) << rackscale::models::workload::collective_name(c.op) << " " << c.size;
    EXPECT_EQ(b.bytes, c.bytes) << rackscale::models::workload::collective_name(c.op) << " " << c.size;
  }
}

// ---- the nccl-tests style sweep, from YAML -------------------------------------------------------------

// The 2-node H100 example in chunk fidelity: one row per power of two, nccl-tests' bus bandwidth, the
// algorithm NCCL would choose, and every figure identical to a run on this rank alone.
TEST(CollectiveSweep, TwoNodeExampleIsIdenticalOnAnyRankCount) {
  const auto scenario = rackscale::io::load_scenario(
      std::string(RACKSCALE_EXAMPLE_CONFIGS) + "/nccl-allreduce-2node-h100.yaml",
      {"network.fidelity=chunk", "workload.min_bytes=1KiB", "workload.max_bytes=128MiB"});
  const auto all = rackscale::app::run_collective(world(), scenario, {});
  const auto mine = rackscale::app::run_collective(self(), scenario, {});
  ASSERT_EQ(all.results.size(), 18u);  // 1 KiB .. 128 MiB
  EXPECT_EQ(all.devices, 16u);
  for (std::size_t i = 0; i < all.results.size(); ++i) {
    const auto& r = all.results[i];
    EXPECT_EQ(r.bytes, 1024ULL << i);
    EXPECT_EQ(r.time, mine.results[i].time) << r.bytes;
    EXPECT_DOUBLE_EQ(r.busbw, r.algbw * 2.0 * 15.0 / 16.0);
    EXPECT_EQ(r.algorithm, r.bytes <= (32u << 20) ? Algorithm::tree : Algorithm::ring) << r.bytes;
  }
  // 128 MiB by ring: within 2 % of the 8 NICs' line rate as the network carries it, 8 x 400 Gb/s x the
  // NIC preset's efficiency 0.94 = 376 GB/s of bus bandwidth.
  EXPECT_NEAR(all.results.back().busbw, 376e9, 0.02 * 376e9);
}

// Every op of nccl-tests from the 2-node example, in chunk fidelity as messages (gather's incast then
// queues at the root's port) and as closed forms: the same rows on every rank count as on this rank
// alone, nccl-tests' sizes and counts, and busbw = algbw x the op's factor.
TEST(CollectiveSweep, EveryOpIsIdenticalOnAnyRankCount) {
  const char* ops[] = {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "reduce",
                       "all_to_all", "gather",         "scatter",    "sendrecv"};
  for (const char* collectives : {"messages", "closed_form"})
    for (const char* op : ops) {
      SCOPED_TRACE(std::string(op) + " " + collectives);
      const auto scenario = rackscale::io::load_scenario(
          std::string(RACKSCALE_EXAMPLE_CONFIGS) + "/nccl-allreduce-2node-h100.yaml",
          {"network.fidelity=chunk", std::string("network.collectives=") + collectives, std::string("workload.op=") + op,
           "workload.root=11", "workload.min_bytes=32B", "workload.max_bytes=8MiB", "workload.step_factor=8"});
      const auto all = rackscale::app::run_collective(world(), scenario, {});
      const auto mine = rackscale::app::run_collective(self(), scenario, {});
      ASSERT_EQ(all.results.size(), 7u);  // 32 B .. 8 MiB, times 8
      const CollectiveKind kind = all.op;
      const double factor = coll::bus_bandwidth_factor(kind, 16);
      for (std::size_t i = 0; i < all.results.size(); ++i) {
        const auto& r = all.results[i];
        const std::uint64_t floats = (32ULL << (3 * i)) / 4;
        const bool split = coll::splits_buffer(kind);
        EXPECT_EQ(r.count, split ? floats / 16 : floats);
        EXPECT_EQ(r.bytes, split ? floats / 16 * 16 * 4 : floats * 4);
        EXPECT_EQ(r.time, mine.results[i].time) << r.bytes;
        EXPECT_EQ(r.algorithm, mine.results[i].algorithm) << r.bytes;
        if (r.bytes == 0) {
          EXPECT_EQ(r.time, 0u);
          continue;
        }
        ASSERT_GT(r.time, 0u) << r.bytes;
        EXPECT_DOUBLE_EQ(r.algbw, static_cast<double>(r.bytes) / pdes::to_seconds(r.time));
        EXPECT_DOUBLE_EQ(r.busbw, r.algbw * factor);
      }
    }
}

namespace {
// The 2-node H100 example in analytical fidelity (NVSwitch domains, 8 NICs per node, a 2-tier fat tree),
// and a call over its 16 devices run both as messages and as a closed form.
struct BothWays {
  Outcome messages, closed;
};
BothWays run_both_ways(const coll::CollectiveCall& call) {
  const auto scenario = rackscale::io::load_scenario(std::string(RACKSCALE_EXAMPLE_CONFIGS) +
                                                         "/nccl-allreduce-2node-h100.yaml",
                                                     {"network.fidelity=analytical"});
  const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  net::NetworkSpec messages = scenario.network;
  messages.collectives = net::CollectiveModel::messages;
  net::NetworkSpec closed = scenario.network;
  closed.collectives = net::CollectiveModel::closed_form;
  return {run(scenario.cluster, topology, messages, call, {}), run(scenario.cluster, topology, closed, call, {})};
}
}  // namespace

// ---- closed-form calls load the links as their messages would ----------------------------------------

// On the 2-node H100 example (NVSwitch domains, 8 NICs per node, a 2-tier fat tree), in analytical
// fidelity with the default channels and pipelining: a closed-form call charges every port exactly the
// bytes, serialization time and message count that the same call run as messages records.
TEST(ClosedForm, ChargesThePortsItsMessagesWouldLoad) {
  struct Case {
    CollectiveKind kind;
    Algorithm algorithm;
  };
  const Case cases[] = {{CollectiveKind::all_reduce, Algorithm::ring},
                        {CollectiveKind::all_reduce, Algorithm::tree},
                        {CollectiveKind::all_reduce, Algorithm::halving_doubling},
                        {CollectiveKind::all_reduce, Algorithm::hierarchical},
                        {CollectiveKind::reduce_scatter, Algorithm::ring},
                        {CollectiveKind::all_gather, Algorithm::halving_doubling},
                        {CollectiveKind::broadcast, Algorithm::automatic},
                        {CollectiveKind::reduce, Algorithm::automatic},
                        {CollectiveKind::all_to_all, Algorithm::automatic},
                        {CollectiveKind::gather, Algorithm::automatic},
                        {CollectiveKind::scatter, Algorithm::automatic},
                        {CollectiveKind::sendrecv, Algorithm::automatic}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(rackscale::models::workload::collective_name(c.kind)) + " " +
                 std::to_string(static_cast<int>(c.algorithm)));
    // 3 MiB + 5 bytes: channels and pieces of unequal sizes.
    const auto call = call_of(c.kind, c.algorithm, (3u << 20) + 5, 16);
    const auto [m, f] = run_both_ways(call);
    EXPECT_EQ(m.completed, 16u);
    EXPECT_EQ(f.completed, 16u);
    std::uint64_t total = 0;
    for (const auto b : m.port_bytes) total += b;
    EXPECT_GT(total, call.bytes);
    EXPECT_EQ(f.port_bytes, m.port_bytes);
    EXPECT_EQ(f.port_busy, m.port_busy);
    EXPECT_EQ(f.port_messages, m.port_messages);
  }
}

// Across two H100 nodes (NVSwitch inside, a NIC per GPU), the point-to-point closed forms agree with the
// same calls run as messages in analytical fidelity to within NCCL's latency terms (under 3 % at
// 256 MiB): all-to-all and scatter are bound by a member's NIC carrying 8/16 of the size, sendrecv by the
// NIC of the pairs that cross nodes. (The ring's form, which all-to-all used before, took B = min(NVLink,
// 8 NICs) for the whole (p - 1)/p S and came out about 4 times faster than its messages.)
TEST(ClosedForm, PointToPointAgreesWithItsMessagesAcrossDomains) {
  for (const CollectiveKind kind : {CollectiveKind::all_to_all, CollectiveKind::scatter, CollectiveKind::sendrecv}) {
    SCOPED_TRACE(rackscale::models::workload::collective_name(kind));
    const auto [m, f] = run_both_ways(call_of(kind, Algorithm::automatic, 256u << 20, 16));
    EXPECT_EQ(f.completed, 16u);
    EXPECT_NEAR(static_cast<double>(f.time()), static_cast<double>(m.time()), 0.03 * static_cast<double>(m.time()));
  }
}

// ---- NVLS: reduction and multicast in the NVSwitch ---------------------------------------------------

namespace {
constexpr SimTime kNvA = 500'000;  // device to device through the NVSwitch: 250 ns up, 250 ns down

// `nodes` NVSwitch nodes of p GPUs with NVLink multicast, links of `link` bytes/s each way, a switch that
// reduces `reduce` operand bytes/s per port; several nodes hang off one leaf switch.
net::ClusterSpec nvls_cluster(std::uint32_t p, double link, double reduce, std::uint32_t nodes = 1) {
  net::ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = p;
  c.nodes_per_rack = 1;
  c.accelerator.name = "test-hopper";
  c.accelerator.nvlink_multicast = true;
  c.scale_up = {net::ScaleUpKind::nvswitch, p, link, 1.0, kNvA, {}};
  c.scale_up.switch_spec.name = "test-nvswitch";
  c.scale_up.switch_spec.nvls_reduce_bandwidth = reduce;
  c.nics_per_node = 0;
  if (nodes > 1) {
    c.nics_per_node = p;
    add_test_fat_tree(c);
  }
  return c;
}

Outcome on_domain(const net::ClusterSpec& cluster, CollectiveKind kind, std::uint64_t bytes,
                  const coll::CollectiveOptions& options = plain(), const net::NetworkSpec& spec = analytical()) {
  const net::Topology t = net::build_topology(cluster, net::RoutingMode::spray);
  return run(cluster, t, spec, call_of(kind, Algorithm::nvls, bytes, cluster.devices_per_node), options);
}
}  // namespace

// One piece, one channel, analytical, all members starting together; slices of s = S/p bytes, u = s/B on
// a link, w = s/X through a port's reduction engine, v = max(u, w):
//   reduce-scatter  a + p v: every port's engine takes its member's p contributions in slice order, in
//                   step with the others, so the sum of slice j leaves at (j + 1) v;
//   all-gather      a + p u: every port serializes the p copies;
//   all-reduce      (X >= B) a + max(2 p u, a + (p + 1) u): the last owner's sum leaves at p u, and each
//                   port then serializes the p multicasts; without pieces the two directions of a port do
//                   not overlap (docs/models.md, "NVLS", derives it).
TEST(Nvls, AnalyticalTimesAreTheClosedForms) {
  for (const std::uint32_t p : {2u, 4u, 8u}) {
    const std::uint64_t S = 3 * 1024 * 1024 * std::uint64_t{p};
    const SimTime u = ser(S / p, 450e9);
    // A switch that reduces slower than the links: its engines set the pace.
    const net::ClusterSpec slow = nvls_cluster(p, 450e9, 274e9);
    const SimTime v = std::max(u, ser(S / p, 274e9));
    ASSERT_GT(v, u);
    const Outcome rs = on_domain(slow, CollectiveKind::reduce_scatter, S);
    EXPECT_EQ(rs.algorithm, Algorithm::nvls);
    EXPECT_EQ(rs.completed, p);
    EXPECT_EQ(rs.time(), kNvA + p * v) << "p " << p;
    const Outcome ag = on_domain(slow, CollectiveKind::all_gather, S);
    EXPECT_EQ(ag.completed, p);
    EXPECT_EQ(ag.time(), kNvA + p * u) << "p " << p;
    // Faster than the links: the links set the pace.
    const net::ClusterSpec fast = nvls_cluster(p, 450e9, 900e9);
    EXPECT_EQ(on_domain(fast, CollectiveKind::reduce_scatter, S).time(), kNvA + p * u) << "p " << p;
    const Outcome ar = on_domain(fast, CollectiveKind::all_reduce, S);
    EXPECT_EQ(ar.algorithm, Algorithm::nvls);
    EXPECT_EQ(ar.completed, p);
    EXPECT_EQ(ar.time(), kNvA + std::max(2 * p * u, kNvA + (p + 1) * u)) << "p " << p;
  }
}

// With the default pieces the two directions of every port work at once, and all-reduce comes close to
// the bound the cost model uses, S / min(p B / (p + 1), X). On 8 H100s as the network carries them (450
// GB/s x 0.82) with nvswitch-gen3's 274 GB/s the switch sets the pace (busbw 2 (p - 1)/p X = 479.5 GB/s)
// and the ports have the slack to hide the pipeline's fill: within 2 %. With a switch twice as fast the
// ports set it (p B / (p + 1) = 328 GB/s of algbw, against a ring's p B / (2 (p - 1)) = 211), and the fill
// shows: a port's receiving side idles for the first of the P = 32 pieces, its sending side for the last,
// within 2 / P. Chunk fidelity comes within 5 % of analytical.
TEST(Nvls, PipelinedAllReduceReachesTheBoundOfPortsAndSwitch) {
  const std::uint32_t p = 8;
  const double B = 450e9 * 0.82;
  for (const auto& [X, slack] : {std::pair{274e9, 0.02}, std::pair{548e9, 2.0 / 32}}) {
    const net::ClusterSpec c = nvls_cluster(p, B, X);
    const std::uint64_t S = 1ULL << 30;
    const Outcome out = on_domain(c, CollectiveKind::all_reduce, S, {});
    EXPECT_EQ(out.completed, p);
    const double bound = static_cast<double>(S) / std::min(p * B / (p + 1), X) * 1e12;
    EXPECT_GE(static_cast<double>(out.time()), bound) << "X " << X;
    EXPECT_LE(static_cast<double>(out.time()), (1 + slack) * bound) << "X " << X;
    const std::uint64_t medium = 256ULL << 20;
    const Outcome fast = on_domain(c, CollectiveKind::all_reduce, medium, {});
    const Outcome chunked = on_domain(c, CollectiveKind::all_reduce, medium, {}, chunks());
    EXPECT_EQ(chunked.completed, p);
    EXPECT_NEAR(static_cast<double>(chunked.time()), static_cast<double>(fast.time()),
                0.05 * static_cast<double>(fast.time()))
        << "X " << X;
  }
}

// Per member r, with slice s_r (S over p, the first S mod p one byte larger), through its cable to the
// switch: all-reduce S + s_r in (its contributions to every slice, its multicast) and s_r + S out (its
// sum, every multicast); reduce-scatter S in, s_r out; all-gather s_r in, S out. Message counts with P
// pieces per slice: p P + P, P + p P; p P, P; P, p P. The same bytes in chunk fidelity, and a closed-form
// call charges every port exactly what the messages record.
TEST(Nvls, PortBytesAreTheFormula) {
  const std::uint32_t p = 8;
  const net::ClusterSpec c = nvls_cluster(p, 369e9, 274e9);
  const net::Topology t = net::build_topology(c, net::RoutingMode::spray);
  const std::uint64_t S = (24ULL << 20) + 5;
  const std::uint64_t P = 6;  // 3 MiB slices in 512 KiB pieces
  for (const CollectiveKind kind : {CollectiveKind::all_reduce, CollectiveKind::reduce_scatter,
                                    CollectiveKind::all_gather}) {
    SCOPED_TRACE(std::string(rackscale::models::workload::collective_name(kind)));
    const auto call = call_of(kind, Algorithm::nvls, S, p);
    const Outcome a = run(c, t, analytical(), call, {});
    const Outcome ch = run(c, t, chunks(), call, {});
    EXPECT_EQ(a.completed, p);
    EXPECT_EQ(ch.completed, p);
    for (std::uint32_t r = 0; r < p; ++r) {
      const std::uint64_t s = S / p + (r < S % p ? 1 : 0);
      const net::NodeId node = t.devices[r];
      const std::uint32_t into = t.port_id(node, 0);
      const std::uint32_t out_of = t.port_id(t.port(node, 0).peer, t.port(node, 0).peer_port);
      const std::uint64_t in_bytes = kind == CollectiveKind::all_reduce       ? S + s
                                     : kind == CollectiveKind::reduce_scatter ? S
                                                                              : s;
      const std::uint64_t out_bytes = kind == CollectiveKind::all_reduce       ? s + S
                                      : kind == CollectiveKind::reduce_scatter ? s
                                                                               : S;
      const std::uint64_t in_messages = kind == CollectiveKind::all_reduce       ? p * P + P
                                        : kind == CollectiveKind::reduce_scatter ? p * P
                                                                                 : P;
      const std::uint64_t out_messages = kind == CollectiveKind::all_reduce       ? P + p * P
                                         : kind == CollectiveKind::reduce_scatter ? P
                                                                                  : p * P;
      EXPECT_EQ(a.port_bytes[into], in_bytes) << "member " << r;
      EXPECT_EQ(a.port_bytes[out_of], out_bytes) << "member " << r;
      EXPECT_EQ(a.port_messages[into], in_messages) << "member " << r;
      EXPECT_EQ(a.port_messages[out_of], out_messages) << "member " << r;
      EXPECT_EQ(ch.port_bytes[into], in_bytes) << "member " << r;
      EXPECT_EQ(ch.port_bytes[out_of], out_bytes) << "member " << r;
    }
    net::NetworkSpec closed = analytical();
    closed.collectives = net::CollectiveModel::closed_form;
    const Outcome f = run(c, t, closed, call, {});
    EXPECT_EQ(f.completed, p);
    EXPECT_EQ(f.algorithm, Algorithm::nvls);
    EXPECT_EQ(f.port_bytes, a.port_bytes);
    EXPECT_EQ(f.port_busy, a.port_busy);
    EXPECT_EQ(f.port_messages, a.port_messages);
  }
}

// NCCL's cost model with NVLS inside one domain of 8 H100s (450 GB/s x 0.82, nvswitch-gen3): all-reduce
// by ring (LL, 15 us + S / 52.7 GB/s) up to 512 KiB, by NVLS (25 us + S / 274 GB/s) from 1 MiB, where the
// two cross at 0.65 MB; all-gather by NVLS (25 us + S / 369 GB/s) from 4 to 16 MiB, between the ring's LL
// and LL128; reduce-scatter never (NVLS moves S through each port against the ring's 7/8 S, and the
// switch reduces at 274 GB/s). Not where it cannot run: across domains, without NVLink multicast, or
// without a reducing switch.
TEST(Nvls, ChosenInsideOneNvSwitchDomainAsNcclDoes) {
  const net::ClusterSpec c = nvls_cluster(8, 450e9 * 0.82, 274e9);
  const coll::FabricFigures f = coll::fabric_figures(c, coll::analyse_members(c, first(8)));
  ASSERT_TRUE(f.nvls);
  for (std::uint64_t s = 8; s <= (8ULL << 30); s *= 2) {
    EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_reduce, s, f).algorithm,
              s >= (1u << 20) ? Algorithm::nvls : Algorithm::ring)
        << s;
    EXPECT_EQ(coll::select_algorithm(CollectiveKind::all_gather, s, f).algorithm,
              s >= (4u << 20) && s <= (16u << 20) ? Algorithm::nvls : Algorithm::ring)
        << s;
    EXPECT_EQ(coll::select_algorithm(CollectiveKind::reduce_scatter, s, f).algorithm, Algorithm::ring) << s;
  }
  const double S = 1 << 30;
  EXPECT_NEAR(coll::predict(CollectiveKind::all_reduce, Algorithm::nvls, 1ULL << 30, f).seconds, 25e-6 + S / 274e9,
              1e-12);
  // The engine records what it chose; broadcast has one algorithm.
  EXPECT_EQ(coll::plan_call(c, call_of(CollectiveKind::all_reduce, Algorithm::automatic, 1 << 30, 8), {}).algorithm,
            Algorithm::nvls);
  EXPECT_EQ(coll::plan_call(c, call_of(CollectiveKind::broadcast, Algorithm::nvls, 1 << 20, 8), {}).algorithm,
            Algorithm::ring);

  const auto two_nodes = nvls_cluster(8, 450e9 * 0.82, 274e9, 2);
  EXPECT_FALSE(coll::fabric_figures(two_nodes, coll::analyse_members(two_nodes, first(16))).nvls);
  EXPECT_EQ(coll::plan_call(two_nodes, call_of(CollectiveKind::all_reduce, Algorithm::nvls, 1 << 30, 16), {}).algorithm,
            Algorithm::ring);
  auto ampere = c;
  ampere.accelerator.nvlink_multicast = false;
  EXPECT_FALSE(coll::fabric_figures(ampere, coll::analyse_members(ampere, first(8))).nvls);
  EXPECT_EQ(coll::plan_call(ampere, call_of(CollectiveKind::all_reduce, Algorithm::automatic, 1 << 30, 8), {}).algorithm,
            Algorithm::ring);
  auto plain_switch = c;
  plain_switch.scale_up.switch_spec.nvls_reduce_bandwidth = 0;
  EXPECT_FALSE(coll::fabric_figures(plain_switch, coll::analyse_members(plain_switch, first(8))).nvls);
}

// A group inside one node of a two-node cluster, in chunk fidelity: the same times and port loads on any
// number of ranks (the switch and its devices share a rack, so its reductions never cross ranks).
TEST(Nvls, IdenticalOnAnyRankCount) {
  const auto c = nvls_cluster(8, 369e9, 274e9, 2);
  const net::Topology t = net::build_topology(c, net::RoutingMode::spray);
  auto call = call_of(CollectiveKind::all_reduce, Algorithm::nvls, 64 << 20, 8);
  for (std::uint32_t i = 0; i < 8; ++i) call.members[i] = 8 + i;  // the second node
  const Outcome all = run(c, t, chunks(), call, {});
  const Outcome mine = run(c, t, chunks(), call, {}, self());
  EXPECT_EQ(all.completed, 8u);
  EXPECT_EQ(all.algorithm, Algorithm::nvls);
  EXPECT_EQ(all.start, mine.start);
  EXPECT_EQ(all.end, mine.end);
  EXPECT_EQ(all.port_bytes, mine.port_bytes);
}

// Asking for NVLS on hardware without it stops with what it needs and what the cluster has: no NVSwitch
// (a mesh, or no scale-up fabric at all as in a torus or PCIe servers), a switch that does not reduce,
// GPUs without NVLink multicast. From a config, the error is located at workload.algorithm.
TEST(Nvls, RefusedOnHardwareWithoutIt) {
  auto mesh = nvls_cluster(4, 450e9, 274e9);
  mesh.scale_up.kind = net::ScaleUpKind::mesh;
  auto plain_switch = nvls_cluster(4, 450e9, 274e9);
  plain_switch.scale_up.switch_spec.nvls_reduce_bandwidth = 0;
  auto ampere = nvls_cluster(4, 450e9, 274e9);
  ampere.accelerator.name = "test-ampere";
  ampere.accelerator.nvlink_multicast = false;
  const std::pair<net::ClusterSpec, std::string> cases[] = {
      {mesh, "expected cluster.scale_up.kind nvswitch, found mesh"},
      {star_cluster(4), "expected cluster.scale_up.kind nvswitch, found none"},
      {plain_switch, "expected cluster.scale_up.switch with nvls_reduce_bandwidth > 0, found switch 'test-nvswitch'"},
      {ampere, "expected cluster.accelerator with nvlink_multicast: true, found 'test-ampere'"},
  };
  for (const auto& [cluster, expected] : cases) {
    try {
      (void)coll::plan_call(cluster, call_of(CollectiveKind::all_reduce, Algorithm::nvls, 1 << 20, 4), {});
      ADD_FAILURE() << "nvls accepted; expected: " << expected;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  // Through a run the engine stops with that message.
  EXPECT_THROW((void)on_star(CollectiveKind::all_reduce, Algorithm::nvls, 1 << 20, 4), pdes::SimulationError);

  const std::string file = std::string(RACKSCALE_COLLECTIVE_TEST_CONFIGS) + "/nvls-on-torus.yaml";
  const auto scenario = rackscale::io::load_scenario(file, {});
  try {
    (void)rackscale::app::run_collective(world(), scenario, {});
    ADD_FAILURE() << "nvls accepted on a torus";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(rackscale::app::locate_error(scenario, e.what()),
              file + ":19:3: workload.algorithm: collective: algorithm nvls (NVLink SHARP) needs an NVSwitch "
                     "scale-up domain: expected cluster.scale_up.kind nvswitch, found none");
  }
}
