// A node's own path-latency cache (network/peer_latencies.hpp) against latencies worked out by hand on a
// star whose two directions differ: hits, misses, evictions and the direction must all give the path's
// latency.
#include <cstdint>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "hand_topology.hpp"
#include "models/network/path_latency_cache.hpp"
#include "models/network/peer_latencies.hpp"

namespace {

using namespace rackscale::testing;
using rackscale::pdes::SimTime;

constexpr std::uint32_t kLeaves = 12;  // 24 keys (both directions): more than the cache keeps

// Node n's cable into the switch takes 1000 n ps; the switch's port out to node n takes 7 n ps.
SimTime up(net::NodeId n) { return 1000 * SimTime{n}; }
SimTime down(net::NodeId n) { return 7 * SimTime{n}; }

net::Topology asymmetric_star() {
  std::vector<net::NodeId> devices;
  std::vector<Cable> cables;
  for (net::NodeId n = 1; n <= kLeaves; ++n) {
    devices.push_back(n);
    cables.push_back({0, n, 100e9, 1});
  }
  net::Topology t = make_topology(kLeaves + 1, devices, cables);
  for (net::NodeId n = 1; n <= kLeaves; ++n) {
    t.ports[t.nodes[n].first_port].latency = up(n);
    t.ports[t.nodes[0].first_port + n - 1].latency = down(n);
  }
  t.router = std::make_unique<StarRouter>();
  return t;
}

TEST(PeerLatencies, GiveEachDirectionsPathLatencyThroughHitsMissesAndEvictions) {
  const net::Topology t = asymmetric_star();
  net::PathLatencyCache shared(t);
  net::PeerLatencies mine;
  const net::NodeId self = 3;
  // Twice over every peer in a stride that revisits recent ones, so that both hits and evicted entries
  // are asked for, in both directions.
  for (int round = 0; round < 2; ++round) {
    for (std::uint32_t step = 0; step < 5 * kLeaves; ++step) {
      const net::NodeId peer = 1 + (step * 5 + step / kLeaves) % kLeaves;
      const SimTime to = peer == self ? 0 : up(self) + down(peer);
      const SimTime from = peer == self ? 0 : up(peer) + down(self);
      SCOPED_TRACE(peer);
      EXPECT_EQ(mine.between(shared, self, peer, true), to);
      EXPECT_EQ(mine.between(shared, self, peer, false), from);
      EXPECT_EQ(mine.between(shared, self, peer, true), to);  // now a hit
    }
  }
}

}  // namespace
