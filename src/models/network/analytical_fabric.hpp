#pragma once
// Analytical fidelity: a message of S bytes over a path of links i with latency l_i and bandwidth B_i
// arrives after  sum(l_i) + S / min(B_i).  No contention: messages never wait for each other. The
// path is the router's (for ECMP, the flow's path). One event per message, straight from sender to
// receiver; the delay is at least the latency of any link the path crosses, so at least the lookahead.
#include "models/network/fabric.hpp"
#include "models/network/flow_path_cache.hpp"
#include "models/network/network_context.hpp"

namespace rackscale::models::network {

class AnalyticalFabric final : public Fabric {
 public:
  explicit AnalyticalFabric(NetworkContext& context) : context_(context), paths_(*context.topology) {}
  void send(NetworkNodeLp& source, const Message& message) override;
  void on_event(NetworkNodeLp& node, const pdes::Event& event) override;

 private:
  // Charges `message`'s bytes to every port of its path from node `src` to node `dst`; returns its time
  // on the path (latency plus the bottleneck's serialization).
  pdes::SimTime charge(NodeId src, NodeId dst, const Message& message);
  NetworkContext& context_;
  FlowPathCache paths_;
};

}  // namespace rackscale::models::network
