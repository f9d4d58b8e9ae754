#pragma once
// Path latencies between nodes, remembered in a direct-mapped table. Zero-byte messages (a tree's
// credits, synchronizations) and closed-form collectives ask for the same few pairs many thousands of
// times an iteration. A pure function of the topology, so a hit and a miss give the same answer and a
// rank's LPs share one table (NetworkContext::latencies). The latency is that of the path an equal-cost router picks for flow
// 0; the topologies built here give every equal-cost path the same latency.
#include <cstdint>
#include <vector>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

class PathLatencyCache {
 public:
  // Entries of 16 bytes: a power of two of at least four per device (a device talks to the leaders of
  // its few groups, and they to it), from 2^14 to 2^20 (16 MiB). Fewer, and at 100k devices a third of
  // the lookups walked the path again.
  explicit PathLatencyCache(const Topology& topology);
  // The table's size for a cluster of `devices` (for memory estimates).
  [[nodiscard]] static std::size_t table_bytes(std::size_t devices) noexcept;
  [[nodiscard]] pdes::SimTime between(NodeId src, NodeId dst);
  [[nodiscard]] pdes::SimTime between_devices(std::uint32_t src_device, std::uint32_t dst_device) {
    return between(topology_.devices[src_device], topology_.devices[dst_device]);
  }

 private:
  struct Entry {
    std::uint64_t pair = ~std::uint64_t{0};
    pdes::SimTime latency = 0;
  };
  const Topology& topology_;
  unsigned bits_;
  std::vector<Entry> entries_;
};

}  // namespace rackscale::models::network
