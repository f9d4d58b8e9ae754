#pragma once
#include <cstdint>
#include <vector>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::collectives {

// Path latencies between devices, remembered: closed-form collectives ask for the same few pairs (each
// device and its groups' rank 0) thousands of times an iteration. One cache serves all the engines of a
// rank (CollectiveOptions::latencies); a pure function of the topology, so hits and misses give the same
// answer.
class LatencyCache {
 public:
  explicit LatencyCache(const network::Topology& topology) : topology_(topology) {}
  [[nodiscard]] pdes::SimTime between(std::uint32_t a_device, std::uint32_t b_device);

 private:
  static constexpr unsigned kBits = 16;
  struct Entry {
    std::uint64_t pair = ~std::uint64_t{0};
    pdes::SimTime latency = 0;
  };
  const network::Topology& topology_;
  std::vector<Entry> entries_ = std::vector<Entry>(std::size_t{1} << kBits);  // direct-mapped
};

}  // namespace rackscale::models::collectives
