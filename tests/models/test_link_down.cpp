// A cable down (cluster.degraded_links with fraction 0, degraded_links.hpp, rerouting_router.hpp): on a
// small two-tier fat tree with ECMP, a flow whose route used the dead uplink takes the leaf's other one,
// in the path, in the port byte counters and in its time; a flow that already used that uplink now shares
// it. The figures are hand-computed; CTest runs this binary on 1 and 2 ranks and they must hold on both.
// Cables whose loss leaves a pair without a route are refused before anything is simulated.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "models/network/build_topology.hpp"
#include "models/network/degraded_links.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/output_port.hpp"
#include "models/traffic/traffic_device.hpp"
#include "pdes/engine.hpp"
#include "pdes/rank_reduce.hpp"

namespace pdes = rackscale::pdes;
namespace net = rackscale::models::network;
namespace traffic = rackscale::models::traffic;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }

constexpr double kGBps = 1e9;
constexpr std::uint64_t kChunk = 64 * 1024;
constexpr std::uint64_t kBytes = 16 * kChunk;

// 4 single-device nodes on a two-tier fat tree of radix 4: leaf 0 holds devices 0 and 1, leaf 1 devices 2
// and 3, each with 2 uplinks to the one spine (two parallel cables per leaf). NICs and leaf ports at
// 100 GB/s, the spine's ports at 25 GB/s: every leaf-spine cable runs at 25 GB/s, the bottleneck of
// every route between the leaves.
net::ClusterSpec small_fat_tree() {
  net::ClusterSpec c;
  c.nodes = 4;
  c.devices_per_node = 1;
  c.nics_per_node = 1;
  c.nodes_per_rack = 2;
  c.nic.bandwidth = 100 * kGBps;
  c.nic.latency = 1'000;
  c.scale_out.kind = net::ScaleOutKind::fat_tree;
  c.scale_out.switch_spec.radix = 4;
  c.scale_out.switch_spec.port_bandwidth = 100 * kGBps;
  c.scale_out.switch_spec.latency = 300'000;
  c.scale_out.cable_latency = 20'000;
  c.scale_out.switches_per_rack = 4;
  c.scale_out.fat_tree.tiers = 2;
  rackscale::models::SwitchSpec spine = c.scale_out.switch_spec;
  spine.port_bandwidth = 25 * kGBps;
  c.scale_out.fat_tree.spine_switch = spine;
  return c;
}

net::Topology built(const std::vector<net::DegradedLink>& links = {}) {
  net::Topology t = net::build_topology(small_fat_tree(), net::RoutingMode::ecmp);
  net::degrade_links(t, links);
  return t;
}

// The flow a traffic device gives its first message (traffic_device.cpp).
std::uint64_t first_flow(std::uint32_t device) { return static_cast<std::uint64_t>(device) << 32; }

// The port ids of the route of `flow` from device `src` to device `dst`, as the fabrics walk it.
std::vector<std::uint32_t> route(const net::Topology& t, std::uint32_t src, std::uint32_t dst, std::uint64_t flow) {
  std::vector<std::uint32_t> ports;
  const net::NodeId to = t.devices[dst];
  net::RouteTag tag = t.router->start(t.devices[src], to, flow, 0);
  for (net::NodeId at = t.devices[src]; at != to && ports.size() < 16;) {
    const net::PortIndex index = t.router->next_port(at, to, tag);
    ports.push_back(t.port_id(at, index));
    at = t.port(at, index).peer;
  }
  return ports;
}

SimTime latency_of(const net::Topology& t, const std::vector<std::uint32_t>& ports) {
  SimTime sum = 0;
  for (const std::uint32_t p : ports) sum += t.ports[p].latency;
  return sum;
}

struct Outcome {
  std::uint64_t delivered = 0;
  SimTime first = 0, last = 0;
  std::vector<std::uint64_t> bytes;  // by port id, all ranks
};

// Devices 0 and 1 (leaf 0) each send kBytes to device 3 (leaf 1): an incast of two senders, LPs in
// contiguous blocks of nodes over the ranks.
Outcome run(const net::Topology& topology, net::Fidelity fidelity) {
  const int ranks = world().size();
  std::vector<std::int32_t> owner(topology.nodes.size());
  for (std::size_t n = 0; n < owner.size(); ++n)
    owner[n] = static_cast<std::int32_t>(n * static_cast<std::size_t>(ranks) / owner.size());
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {});
  net::NetworkSpec spec;
  spec.fidelity = fidelity;
  spec.chunk_bytes = kChunk;
  net::NetworkContext context(topology, spec);
  rackscale::models::TrafficSpec pattern;
  pattern.pattern = rackscale::models::TrafficPattern::incast;
  pattern.bytes = kBytes;
  pattern.receiver = 3;
  pattern.senders = 2;
  const traffic::TrafficPlan plan(pattern, static_cast<std::uint32_t>(topology.device_count()), 1);
  traffic::TrafficStats stats;
  net::add_network_lps(engine, context, [&](std::uint32_t) { return std::make_unique<traffic::TrafficDevice>(plan, stats); });
  (void)engine.run(pdes::kNever);
  Outcome out;
  out.delivered = boost::mpi::all_reduce(world(), stats.completion.count(), std::plus<std::uint64_t>());
  out.first = pdes::min_over_ranks(world(), stats.completion.count() ? stats.completion.min() : pdes::kNever);
  out.last = pdes::max_over_ranks(world(), stats.completion.max());
  const std::vector<std::uint64_t> mine = context.counters.bytes();
  out.bytes.resize(mine.size());
  boost::mpi::all_reduce(world(), mine.data(), static_cast<int>(mine.size()), out.bytes.data(),
                         std::plus<std::uint64_t>());
  return out;
}

// The two senders' routes on the intact tree: each is device -> leaf 0 -> spine -> leaf 1 -> device 3,
// over different uplinks and different spine downlinks (checked: the hand figures below rely on it).
struct Routes {
  std::vector<std::uint32_t> a, b;  // device 0's, device 1's
};
Routes intact_routes() {
  const net::Topology t = built();
  Routes r{route(t, 0, 3, first_flow(0)), route(t, 1, 3, first_flow(1))};
  EXPECT_EQ(r.a.size(), 4u);
  EXPECT_EQ(r.b.size(), 4u);
  EXPECT_EQ(t.ports[r.a[1]].link_class, net::LinkClass::leaf_spine);
  EXPECT_NE(r.a[1], r.b[1]) << "the premise: the two flows leave leaf 0 over different uplinks";
  EXPECT_NE(r.a[2], r.b[2]) << "the premise: and reach leaf 1 over different cables";
  return r;
}
}  // namespace

// Analytical fidelity (no queueing): device 0's uplink down, its flow takes leaf 0's other uplink, the
// one device 1's flow uses, which now carries both flows' bytes and the dead cable none. The time of each
// is unchanged: the other route costs the same, 4 hops of latency plus S over the 25 GB/s leaf-spine
// cables.
TEST(LinkDown, AFlowWhoseUplinkIsDownTakesTheOtherAtTheSameCost) {
  const Routes intact = intact_routes();
  const net::Topology t = built({{intact.a[1], 0.0}});
  const std::vector<std::uint32_t> a = route(t, 0, 3, first_flow(0));
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0], intact.a[0]);
  EXPECT_EQ(a[1], intact.b[1]) << "leaf 0's other uplink";
  EXPECT_EQ(route(t, 1, 3, first_flow(1)), intact.b) << "a route that avoided the dead cable stays";

  const SimTime expected = latency_of(t, a) + net::serialization_time(kBytes, 25 * kGBps);
  EXPECT_EQ(latency_of(t, a), latency_of(t, intact.a));
  const Outcome before = run(built(), net::Fidelity::analytical);
  const Outcome after = run(t, net::Fidelity::analytical);
  EXPECT_EQ(before.delivered, 2u);
  EXPECT_EQ(after.delivered, 2u);
  EXPECT_EQ(before.last, expected);
  EXPECT_EQ(after.first, expected);
  EXPECT_EQ(after.last, expected);

  const std::uint32_t dead = intact.a[1];
  EXPECT_EQ(before.bytes[dead], kBytes);
  EXPECT_EQ(before.bytes[intact.b[1]], kBytes);
  EXPECT_EQ(after.bytes[dead], 0u);
  EXPECT_EQ(after.bytes[net::reverse_port(t, dead)], 0u);
  EXPECT_EQ(after.bytes[intact.b[1]], 2 * kBytes);
}

// Chunk fidelity (ports queue), cut-through: alone on its uplink each flow finishes at L + n ser(c, 25
// GB/s) for its n = 16 chunks (the 100 GB/s ports before and after add no serialization of their own).
// Sharing the surviving uplink, that port serializes both flows' 2n chunks back to back from the moment
// the first heads arrive (both NICs feed it at 4x its rate): the last chunk is out at L + 2n ser(c, 25
// GB/s) and nothing after it queues (each later cable is at least as fast as the uplink's whole output).
// The shared serialization doubles.
TEST(LinkDown, TrafficOnTheSurvivingUplinkSharesItAndItsSerializationDoubles) {
  const Routes intact = intact_routes();
  const net::Topology t = built({{intact.a[1], 0.0}});
  const SimTime l = latency_of(t, intact.a);
  const SimTime ser = net::serialization_time(kChunk, 25 * kGBps);
  const Outcome before = run(built(), net::Fidelity::chunk);
  EXPECT_EQ(before.delivered, 2u);
  EXPECT_EQ(before.first, l + 16 * ser);
  const Outcome after = run(t, net::Fidelity::chunk);
  EXPECT_EQ(after.delivered, 2u);
  EXPECT_EQ(after.last, l + 2 * 16 * ser);
  EXPECT_EQ(after.bytes[intact.a[1]], 0u);
  EXPECT_EQ(after.bytes[intact.b[1]], 2 * kBytes);
}

// No route remains: a device's own cable (its NIC's), or both uplinks of a leaf. Refused when the cables
// are taken down, naming the entry, the cable, and why; and the runs never start.
TEST(LinkDown, ACableWhoseLossLeavesNoRouteIsRefused) {
  const Routes intact = intact_routes();
  try {
    (void)built({{intact.a[0], 0.5}, {intact.a[0], 0.0}});
    ADD_FAILURE() << "a device's NIC cable down was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "cluster.degraded_links[1].link: link " + std::to_string(intact.a[0]) +
                  " (device 0 (rack 0) - leaf switch node 4 (rack 2)) is down and no route remains: it is a cable of "
                  "device 0 (rack 0), and the routing (fat tree up/down, ECMP per flow) has no alternative to a "
                  "device's own cable");
  }
  try {
    (void)built({{intact.a[1], 0.0}, {intact.b[1], 0.0}});
    ADD_FAILURE() << "both uplinks of leaf 0 down were accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("cluster.degraded_links[", 0), 0u) << message;
    EXPECT_NE(message.find("(leaf switch node 4 (rack 2) - spine switch node 6 (rack 2)) is down and no route remains "
                           "from device 0 (rack 0) to device 2 (rack 1): each of the 1025 routes the routing (fat "
                           "tree up/down, ECMP per flow) offers them that were tried crosses a link that is down"),
              std::string::npos)
        << message;
  }
  // Down by the spine's end of the cable: the same cable.
  EXPECT_THROW((void)built({{intact.a[1], 0.0}, {net::reverse_port(built(), intact.b[1]), 0.0}}), std::invalid_argument);
  // One uplink down is not refused, whichever end names it.
  EXPECT_NO_THROW((void)built({{net::reverse_port(built(), intact.a[1]), 0.0}}));
}
