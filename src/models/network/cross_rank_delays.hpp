#pragma once
// How soon an event sent on one rank can reach another, cable by cable: what each cable declares to the
// engine, whose lookahead is the least of these over the cables between ranks (pdes/link.hpp).
//
// In chunk and train fidelity chunks cross every cable, so a cable's bound is its own latency. In
// analytical fidelity only devices exchange events across racks, each message (or zero-byte signal)
// arriving after its whole path's latency. A path that goes through the scale-out fabric leaves a
// compute rack by one port into a network rack and comes back into a compute rack by another, so it
// takes at least the fastest port of the first kind plus the fastest of the second: the switched floor
// (the fat trees of the examples: 900 ns, where the fastest cable between ranks is 250-350 ns). A cable between two
// compute racks (a torus) is such a path on its own and keeps its latency. A cable's bound is then the
// larger of its latency and the floor, since every path through it also goes through the fabric.
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

class CrossRankDelays {
 public:
  CrossRankDelays(const Topology& topology, Fidelity fidelity);

  // The least delay of an event between ranks whose path crosses `port` of `node`.
  [[nodiscard]] pdes::SimTime of(NodeId node, const Port& port) const noexcept;
  // 0 in chunk and train fidelity, or when a device sits outside a compute rack (no floor is known).
  [[nodiscard]] pdes::SimTime switched_floor() const noexcept { return floor_; }

 private:
  const Topology* topology_;
  pdes::SimTime floor_ = 0;
};

}  // namespace rackscale::models::network
