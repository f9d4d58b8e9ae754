#pragma once
// The LP of a topology node (device or switch): its output ports, and the event plumbing the fabric
// needs. Node id == LP id.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/network/network_context.hpp"
#include "models/network/network_events.hpp"
#include "models/network/output_port.hpp"
#include "models/network/peer_latencies.hpp"
#include "models/network/topology.hpp"
#include "models/network/train_state.hpp"
#include "pdes/logical_process.hpp"

namespace rackscale::models::network {

class NetworkNodeLp : public pdes::LogicalProcess {
 public:
  NetworkNodeLp(NodeId node, NetworkContext& network)
      : LogicalProcess(node), network_(network), ports_(network.topology->nodes[node].port_count) {
    for (PortIndex i = 0; i < ports_.size(); ++i) {
      const Port& port = network.topology->port(node, i);
      OutputPort& out = ports_[i];
      out.latency = port.latency;
      out.bandwidth = port.bandwidth;
      out.peer = port.peer;
      out.id = network.topology->port_id(node, i);
      if (port.bandwidth > 0) out.full_chunk_serialize = serialization_time(network.spec.chunk_bytes, port.bandwidth);
    }
  }

  [[nodiscard]] NodeId node() const noexcept { return id(); }
  [[nodiscard]] NetworkContext& network() noexcept { return network_; }
  [[nodiscard]] OutputPort& output_port(PortIndex index) noexcept { return ports_[index]; }
  [[nodiscard]] pdes::SimTime current_time() const noexcept { return now(); }
  // Path latencies to and from this node, through its own few remembered peers (peer_latencies.hpp).
  [[nodiscard]] pdes::SimTime latency_to(NodeId to) {
    return peer_latencies_.between(network_.latencies, node(), to, true);
  }
  [[nodiscard]] pdes::SimTime latency_from(NodeId from) {
    return peer_latencies_.between(network_.latencies, node(), from, false);
  }

  // For the fabric: send an event from this node.
  void emit(NodeId to, pdes::SimTime delay, pdes::EventKind kind, const pdes::Payload& payload, std::uint32_t aux = 0) {
    send(to, delay, kind, payload, aux);
  }
  // A message that crosses no link (send_without_links, DeviceLp::send_signal) arriving at `to`: at once
  // at this node itself, else after the path's latency, and in either case no earlier than `not_before`.
  void emit_arrival(NodeId to, MessageId message, std::uint64_t bytes, pdes::SimTime not_before = 0) {
    const pdes::SimTime arrival = to == node() ? 0 : latency_to(to);
    const pdes::SimTime held = not_before > now() ? not_before - now() : 0;
    send(to, std::max(arrival, held), kMessageArrival, encode_message_arrival(message, bytes));
  }

  // Analytical fidelity: a whole message addressed to this node arrived now.
  virtual void accept_message(MessageId message, std::uint64_t bytes) = 0;

  // Chunk fidelity, at the node before a message's destination: what has been forwarded to the
  // destination so far of each message still incomplete there (ChunkFabric).
  struct LastHop {
    std::uint32_t chunks = 0;
    std::uint64_t bytes = 0;
    pdes::SimTime last_tail = 0;  // when the latest tail so far is in at the destination
  };
  [[nodiscard]] std::unordered_map<MessageId, LastHop>& last_hop() noexcept { return last_hop_; }

  // Train fidelity's state of this node (TrainFabric), made when first used.
  [[nodiscard]] TrainNodeState& train_state() {
    if (!train_) {
      train_ = std::make_unique<TrainNodeState>();
      train_->ports.resize(ports_.size());
    }
    return *train_;
  }

 protected:
  // For the node types' checkpoints (network_node_checkpoint.cpp): the ports' queues and the last
  // hops. The path latencies are a cache of the topology's and are not saved.
  void save_node(boost::archive::binary_oarchive& out) const;
  void load_node(boost::archive::binary_iarchive& in);

 private:
  NetworkContext& network_;
  std::vector<OutputPort> ports_;
  std::unordered_map<MessageId, LastHop> last_hop_;
  std::unique_ptr<TrainNodeState> train_;
  PeerLatencies peer_latencies_;
};

}  // namespace rackscale::models::network
