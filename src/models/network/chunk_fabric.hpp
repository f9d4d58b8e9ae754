#pragma once
// Chunk fidelity: a message of S bytes is cut into ceil(S / c) chunks of c bytes (the last one
// shorter). Each chunk is routed hop by hop; at every output port it waits FIFO behind earlier
// chunks, is serialized at the port's bandwidth, and reaches the next node after the link's latency.
//
// Forwarding (network.forwarding):
//   cut_through        a chunk leaves a port as soon as its head is there and the port is free, but
//                      cannot finish before its tail has arrived at the previous link's pace. With no
//                      contention a message takes  sum(l_i) + S / min(B_i), as in the analytical model.
//   store_and_forward  a chunk leaves only once all of it has arrived. With no contention a message
//                      of n chunks takes  sum(l_i + c / B_i) + (n - 1) c / min(B_i)
//                      (the first chunk crosses every link in turn; the rest follow at the pace of the
//                      slowest link).
// docs/network.md derives both.
//
// The destination device hears of a message once, when its last byte is in (kMessageComplete, sent by
// the node before it, which counts the chunks; see deliver()), instead of once per chunk. A zero-byte
// message is one event after its path's latency, as in analytical fidelity: it loads no port.
#include "models/network/fabric.hpp"
#include "models/network/network_context.hpp"
#include "models/network/network_events.hpp"

namespace rackscale::models::network {

class ChunkFabric final : public Fabric {
 public:
  explicit ChunkFabric(NetworkContext& context) : context_(context) {}
  void send(NetworkNodeLp& source, const Message& message) override;
  void on_event(NetworkNodeLp& node, const pdes::Event& event) override;

 private:
  // Puts `chunk` on the output port of `at` that leads towards its destination.
  void forward(NetworkNodeLp& at, Chunk chunk, pdes::SimTime tail_after);
  // `chunk` leaves `at` for its destination, where its tail arrives at `tail_at`.
  void deliver(NetworkNodeLp& at, NodeId destination, const Chunk& chunk, pdes::SimTime tail_at);

  NetworkContext& context_;
};

}  // namespace rackscale::models::network
