#pragma once
// The ports of a flow's path, remembered in a two-way set-associative table for the analytical fabric. A
// collective's messages follow few paths many times over (a ring's device sends each channel's 2(p - 1)
// steps to the same neighbour on the same flow), and walking the route for every message (the router's
// arithmetic and hashes at each hop) cost about 900 instructions of a ring message's 1,400 in the fabric.
// Routers are stateless (router.hpp), so a hit and a miss give the same path, and a rank's senders share
// one table.
//
// An entry is one cache line: the key, the path's latency and bottleneck, and up to kMaxHops port ids
// (bandwidths are read from Topology::ports when a message is charged). Longer paths (dragonfly detours)
// are walked every time.
//
// Sets of two entries (two adjacent lines), the one used last first, 16 entries per device. The table
// was direct-mapped with 8 entries per device: a ring over 1,024 devices with 8 channels keeps 8,192
// flows, and in a table of 8,192 entries about 63 % of them share their entry with another; since every
// device sends every step, those evicted each other at every message (docs/performance.md). With two
// ways and twice the entries, the keys of sets of three or more still evict each other when they come
// round in turn (about 26 % of them at that load, by Poisson sets), at the load of 2 channels about 1 %.
#include <array>
#include <cstdint>
#include <vector>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

class FlowPathCache {
 public:
  static constexpr std::uint32_t kMaxHops = 7;

  struct alignas(64) Path {
    std::uint32_t src = 0xFFFF'FFFFu;  // device nodes; src = all ones: an empty slot
    std::uint32_t dst = 0;
    std::uint64_t flow = 0;
    pdes::SimTime latency = 0;
    double bottleneck = 0;
    std::uint32_t hops = 0;  // 0 with src set: longer than kMaxHops, not kept
    std::array<std::uint32_t, kMaxHops> ports{};  // Topology port ids, in path order
  };

  explicit FlowPathCache(const Topology& topology) : topology_(topology) {}
  // The table's size, once allocated, for a cluster of `devices` (for memory estimates).
  [[nodiscard]] static std::size_t table_bytes(std::size_t devices) noexcept;

  // The path of `flow` from device node `src` to device node `dst` (src != dst), or nullptr when it has
  // more than kMaxHops hops. Throws std::logic_error on a routing loop.
  [[nodiscard]] const Path* find(NodeId src, NodeId dst, std::uint64_t flow);

  // Routes find() has walked (its misses): for tests.
  [[nodiscard]] std::uint64_t walks() const noexcept { return walks_; }

 private:
  static constexpr std::size_t kWays = 2;

  const Topology& topology_;
  unsigned bits_ = 0;        // of the set index
  std::uint64_t walks_ = 0;
  std::vector<Path> paths_;  // set i is entries [2i, 2i + 2); allocated at the first look-up: runs whose
                             // collectives are closed forms never ask
};

}  // namespace rackscale::models::network
