#pragma once
// A node's own few path latencies, kept in its LP beside the state its events touch anyway, in front of
// the rank's shared PathLatencyCache. A device sends zero-byte messages (closed-form collectives'
// synchronizations, a tree's credits) to the same handful of peers thousands of times an iteration: its
// group leaders, and they to it. On 16,384 devices the shared table is a megabyte that every lookup
// missed in the processor's cache; these fifteen entries are two lines of the LP's own object.
//
// A pure function of the topology like the shared table, so a hit and a miss give the same latency.
#include <array>
#include <cstdint>

#include "models/network/path_latency_cache.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

class PeerLatencies {
 public:
  // The latency of the path from this node (`self`) to `peer` (outgoing) or from `peer` to it.
  [[nodiscard]] pdes::SimTime between(PathLatencyCache& shared, NodeId self, NodeId peer, bool outgoing) {
    // Node ids from 2^31 - 1 on are not kept: the top bit marks the direction, and peer 2^31 - 1
    // incoming would be the empty key.
    if (peer >= kIncoming - 1) return outgoing ? shared.between(self, peer) : shared.between(peer, self);
    const std::uint32_t key = outgoing ? peer : peer | kIncoming;
    for (std::size_t i = 0; i < kEntries; ++i)
      if (keys_[i] == key) return latencies_[i];
    const pdes::SimTime latency = outgoing ? shared.between(self, peer) : shared.between(peer, self);
    if (latency <= kMaxKept) {  // longer paths (none in the topologies built here) are not kept
      keys_[next_] = key;
      latencies_[next_] = static_cast<std::uint32_t>(latency);
      next_ = static_cast<std::uint8_t>((next_ + 1) % kEntries);
    }
    return latency;
  }

 private:
  // 15 x 8 bytes and the replacement cursor: two cache lines. A tensor-parallel group's leader (1 device
  // in 8) hears from its 7 members and then answers them: 14 keys in turn, which 7 entries replaced
  // round-robin would miss every time.
  static constexpr std::size_t kEntries = 15;
  static constexpr std::uint32_t kIncoming = std::uint32_t{1} << 31;
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  static constexpr pdes::SimTime kMaxKept = kNone;  // 2^32 - 1 ps, about 4.3 ms
  static constexpr std::array<std::uint32_t, kEntries> empty_keys() {
    std::array<std::uint32_t, kEntries> keys{};
    keys.fill(kNone);
    return keys;
  }
  std::array<std::uint32_t, kEntries> keys_ = empty_keys();
  std::array<std::uint32_t, kEntries> latencies_{};
  std::uint8_t next_ = 0;  // round-robin replacement
};

}  // namespace rackscale::models::network
