#include "models/network/fabric.hpp"

#include "models/network/analytical_fabric.hpp"
#include "models/network/chunk_fabric.hpp"
#include "models/network/network_context.hpp"
#include "models/network/network_node_lp.hpp"

namespace rackscale::models::network {

std::unique_ptr<Fabric> make_fabric(NetworkContext& context) {
  if (context.spec.fidelity == Fidelity::chunk) return std::make_unique<ChunkFabric>(context);
  return std::make_unique<AnalyticalFabric>(context);
}

bool send_without_links(NetworkNodeLp& source, const Message& message, NodeId src, NodeId dst) {
  if (src != dst && message.bytes != 0) return false;
  source.emit_arrival(dst, message.id, message.bytes);
  return true;
}

}  // namespace rackscale::models::network
