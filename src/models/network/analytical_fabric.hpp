#pragma once
// Analytical fidelity: a message of S bytes over a path of links i with latency l_i and bandwidth B_i
// arrives after  sum(l_i) + S / min(B_i).  No contention: messages never wait for each other. The
// path is the router's (for ECMP, the flow's path). One event per message, straight from sender to
// receiver; the delay is at least the latency of any link the path crosses, so at least the lookahead.
#include <cstdint>
#include <vector>

#include "models/network/fabric.hpp"
#include "models/network/network_context.hpp"

namespace rackscale::models::network {

class AnalyticalFabric final : public Fabric {
 public:
  explicit AnalyticalFabric(NetworkContext& context) : context_(context) {}
  void send(NetworkNodeLp& source, const Message& message) override;
  void on_event(NetworkNodeLp& node, const pdes::Event& event) override;

 private:
  [[nodiscard]] pdes::SimTime zero_byte_latency(NodeId src, NodeId dst);

  NetworkContext& context_;
  // Latencies of zero-byte messages by (source, destination) node, direct-mapped. Shared by the LPs of a
  // rank, but a pure function of the topology, so what a hit or miss returns is the same everywhere.
  static constexpr unsigned kLatencyCacheBits = 14;
  struct LatencyEntry {
    std::uint64_t pair = ~std::uint64_t{0};
    pdes::SimTime latency = 0;
  };
  std::vector<LatencyEntry> latencies_ = std::vector<LatencyEntry>(std::size_t{1} << kLatencyCacheBits);
};

}  // namespace rackscale::models::network
