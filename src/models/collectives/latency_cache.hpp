#pragma once
#include <cstdint>

#include "models/network/path_latency_cache.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::collectives {

// Path latencies between devices, remembered: closed-form collectives ask for the same few pairs (each
// device and its groups' rank 0) thousands of times an iteration. One cache serves all the engines of a
// rank (CollectiveOptions::latencies).
class LatencyCache {
 public:
  explicit LatencyCache(const network::Topology& topology) : topology_(topology), nodes_(topology) {}
  [[nodiscard]] pdes::SimTime between(std::uint32_t a_device, std::uint32_t b_device) {
    return nodes_.between(topology_.devices[a_device], topology_.devices[b_device]);
  }

 private:
  const network::Topology& topology_;
  network::PathLatencyCache nodes_;
};

}  // namespace rackscale::models::collectives
