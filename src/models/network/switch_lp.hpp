#pragma once
// A switch: forwards every chunk it receives through the output port its router picks. The ports'
// queues are state inside the switch (output_port()). A scale-up switch also reduces and multicasts
// NVLink SHARP traffic (switch_multimem.hpp).
#include <memory>

#include "models/network/network_node_lp.hpp"
#include "models/network/switch_multimem.hpp"

namespace rackscale::models::network {

class SwitchLp final : public NetworkNodeLp {
 public:
  using NetworkNodeLp::NetworkNodeLp;
  void handle(const pdes::Event& event) override;
  void accept_message(MessageId message, std::uint64_t bytes) override;
  // Checkpoints cover the ports and last hops; a switch that holds NVLink SHARP state refuses to save.
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;

 private:
  std::unique_ptr<SwitchMultimem> multimem_;  // made on the first NVLS message: most switches never see one
};

}  // namespace rackscale::models::network
