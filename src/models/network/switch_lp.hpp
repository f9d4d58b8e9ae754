#pragma once
// A switch: forwards every chunk it receives through the output port its router picks. The ports'
// queues are state inside the switch (output_port()).
#include "models/network/network_node_lp.hpp"

namespace rackscale::models::network {

class SwitchLp final : public NetworkNodeLp {
 public:
  using NetworkNodeLp::NetworkNodeLp;
  void handle(const pdes::Event& event) override { network().fabric->on_event(*this, event); }
  void accept_chunk(const Chunk& chunk, pdes::SimTime tail_at) override;
  void accept_message(MessageId message, std::uint64_t bytes) override;
};

}  // namespace rackscale::models::network
