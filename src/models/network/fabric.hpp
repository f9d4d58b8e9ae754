#pragma once
// The network fidelity of a run: how messages cross the topology. An interface with two
// implementations chosen per run (network.fidelity):
//   analytical  a message takes the sum of its path's latencies plus its size over the path's
//               slowest link; no contention. One event per message.
//   chunk       a message is cut into chunks that queue FIFO at every output port on the path, are
//               serialized at each port's bandwidth and forwarded after each hop's latency, so
//               congestion, oversubscription and incast appear as queueing delay.
// The equations are in docs/network.md.
#include <memory>

#include "models/network/cluster_spec.hpp"
#include "models/network/message.hpp"
#include "models/network/topology.hpp"
#include "pdes/event.hpp"

namespace rackscale::models::network {

class NetworkNodeLp;

class Fabric {
 public:
  virtual ~Fabric() = default;
  Fabric() = default;
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  // At the sending device, inside one of its handlers: start carrying `message`.
  virtual void send(NetworkNodeLp& source, const Message& message) = 0;
  // A network event (kChunkArrival, kMessageArrival) at any node.
  virtual void on_event(NetworkNodeLp& node, const pdes::Event& event) = 0;
};

struct NetworkContext;
[[nodiscard]] std::unique_ptr<Fabric> make_fabric(NetworkContext& context);

// The messages that cross no link in either fidelity, sent here if `message` is one of them (returns
// true): a device's message to itself arrives at once; a zero-byte message (a tree's credit, a
// synchronization) loads no link, so it arrives one event later, after its path's latency (the same on
// every equal-cost path of the topologies built here), queueing at no port. Carried as a chunk it cost
// an event per hop, as many as the data it paces; leaving its queueing out moved the 4,096-device tree
// all-reduce by 1.8 % (docs/network.md, "Zero-byte messages").
bool send_without_links(NetworkNodeLp& source, const Message& message, NodeId src, NodeId dst);

}  // namespace rackscale::models::network
