#pragma once
// Analytical fidelity carries each message in one event, T = sum of latencies + S / min bandwidth,
// with no port queues: messages a device posts together would all travel at full rate at once, so a
// call split into channels or pipeline pieces would look C or P times faster than it is. The pacer
// restores the sender's side of the port: per output port of the device, messages leave one after
// another, each holding the port for S / (its path's bottleneck bandwidth), as the per-byte gap G of
// the LogGP model. A message that finds its port busy leaves when the port is free: FIFO, so its
// departure is known when it is posted, and it is sent at once with that departure
// (Message::depart_after) rather than held for a timer event; an analytical path's time does not depend
// on when a message takes it. Receivers are not paced: incast still goes uncounted in this fidelity.
//
// With one message in flight per port (one channel, no pipelining, one peer per step) nothing ever
// waits, and times are the plain alpha-beta ones.
#include <array>
#include <cstdint>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "models/network/device_lp.hpp"
#include "models/network/topology.hpp"

namespace boost::archive {
class binary_oarchive;
class binary_iarchive;
}  // namespace boost::archive

namespace rackscale::models::collectives {

// Line-aligned: a send reads the object's first two lines only (the routes used last, the ports' free
// times) when the device sends to one of its last two peers through one of its first two ports, as a
// ring's member does at every step; the table of routes behind them is for devices with more peers (a
// tree's). Before, a send read the object, a slot of the table and the ports' own allocation: three
// cache misses per message on a large cluster (docs/performance.md).
class alignas(64) SendPacer {
 public:
  explicit SendPacer(const network::Topology& topology) : topology_(topology) {}

  void send(network::DeviceLp& device, std::uint32_t dst_device, std::uint64_t bytes, std::uint64_t flow,
            std::uint64_t tag);
  // Checkpoints (pdes/checkpoint.hpp): the ports' free times. The routes are a cache of the topology's,
  // found again when needed.
  void save(boost::archive::binary_oarchive& out) const;
  void load(boost::archive::binary_iarchive& in);

 private:
  struct Port {
    pdes::SimTime free_at = 0;  // when the last message posted on it has left
  };
  // Per destination, not per flow: the first port and the bottleneck bandwidth are the same on every
  // equal-cost path of the topologies built here (a device has one NIC; parallel paths are made of the
  // same link classes), so the route of flow 0 stands for all.
  struct Route {
    std::uint32_t dst = 0xFFFF'FFFFu;
    network::PortIndex port = 0;
    double bandwidth = 0;
  };
  [[nodiscard]] const Route& route(network::DeviceLp& device, std::uint32_t dst_device);
  [[nodiscard]] Route walk(network::DeviceLp& device, std::uint32_t dst_device) const;

  const network::Topology& topology_;
  std::array<Route, 2> recent_{};  // the routes used last, the latest first
  // The device's ports (all of them once it has sent; none before), the first two inside the object.
  boost::container::small_vector<Port, 2> ports_;
  std::array<Route, 32> routes_{};  // direct-mapped cache: a device talks to few peers (a tree: about 8)
};

}  // namespace rackscale::models::collectives
