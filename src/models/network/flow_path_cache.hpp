#pragma once
// The ports of a flow's path, remembered in a two-way set-associative table for the analytical fabric. A
// collective's messages follow few paths many times over (a ring's device sends each channel's 2(p - 1)
// steps to the same neighbour on the same flow), and walking the route for every message (the router's
// arithmetic and hashes at each hop) cost about 900 instructions of a ring message's 1,400 in the fabric.
// Routers are stateless (router.hpp), so a hit and a miss give the same path, and a rank's senders share
// one table. Entries are keyed by the router's path key (Router::path_key), so the flows of a pair that
// take the same ports share one entry.
//
// An entry is two adjacent cache lines: the key, the path's latency and bottleneck and up to kMaxHops
// port ids in the first; in the second, each hop's serialization time for the size of the last message
// charged on it (find_sized). A collective sends messages of one or two sizes on a flow, and working out
// a hop's serialization time (the port's bandwidth in Topology::ports, a cache miss on a large cluster,
// and a division) cost more than the rest of the message's charge (docs/performance.md). Longer paths
// (dragonfly detours) are walked every time.
//
// Sets of two entries, the one used last first, 16 entries per device. The table
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

  static constexpr std::uint64_t kNoSize = ~std::uint64_t{0};

  struct alignas(128) Path {
    std::uint32_t src = 0xFFFF'FFFFu;  // device nodes; src = all ones: an empty slot
    std::uint32_t dst = 0;
    std::uint64_t key = 0;             // the router's path key (Router::path_key) of the flows it serves
    pdes::SimTime latency = 0;
    double bottleneck = 0;
    std::uint32_t hops = 0;  // 0 with src set: longer than kMaxHops, not kept
    std::array<std::uint32_t, kMaxHops> ports{};  // Topology port ids, in path order
    // find_sized: serialization_time(sized_bytes, bandwidth of ports[h]) for each hop h < hops.
    std::uint64_t sized_bytes = kNoSize;
    std::array<pdes::SimTime, kMaxHops> serialize{};
  };

  explicit FlowPathCache(const Topology& topology) : topology_(topology) {}
  // The table's size, once allocated, for a cluster of `devices` (for memory estimates).
  [[nodiscard]] static std::size_t table_bytes(std::size_t devices) noexcept;

  // The path of `flow` from device node `src` to device node `dst` (src != dst), or nullptr when it has
  // more than kMaxHops hops. Throws std::logic_error on a routing loop.
  [[nodiscard]] const Path* find(NodeId src, NodeId dst, std::uint64_t flow) { return lookup(src, dst, flow); }
  // find(), with the entry's `serialize` set for a message of `bytes`: worked out only when the last
  // message charged on the entry had another size. Since the bottleneck is the bandwidth of one of the
  // hops and serialization_time falls as the bandwidth rises, the largest of them is the serialization
  // at the bottleneck (max_serialize).
  [[nodiscard]] const Path* find_sized(NodeId src, NodeId dst, std::uint64_t flow, std::uint64_t bytes);
  [[nodiscard]] static pdes::SimTime max_serialize(const Path& path) noexcept;

  // Routes find() has walked (its misses): for tests.
  [[nodiscard]] std::uint64_t walks() const noexcept { return walks_; }

 private:
  static constexpr std::size_t kWays = 2;
  [[nodiscard]] Path* lookup(NodeId src, NodeId dst, std::uint64_t flow);

  const Topology& topology_;
  unsigned bits_ = 0;        // of the set index
  std::uint64_t walks_ = 0;
  std::vector<Path> paths_;  // set i is entries [2i, 2i + 2); allocated at the first look-up: runs whose
                             // collectives are closed forms never ask
};

}  // namespace rackscale::models::network
