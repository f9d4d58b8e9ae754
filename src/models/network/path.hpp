#pragma once
// Walking a route: the latency and bottleneck of the path a router gives a flow between two devices.
#include <cstdint>

#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

struct PathFigures {
  pdes::SimTime latency = 0;  // sum of the ports' latencies
  double bottleneck = 0;      // smallest port bandwidth, bytes/s (0 for an empty path)
  std::uint32_t hops = 0;
};

// The path of chunk 0 of `flow` from device node `src` to device node `dst`. Throws std::logic_error on
// a routing loop.
[[nodiscard]] PathFigures path_figures(const Topology& topology, NodeId src, NodeId dst, std::uint64_t flow);

}  // namespace rackscale::models::network
