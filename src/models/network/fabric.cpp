#include "models/network/fabric.hpp"

#include "models/network/analytical_fabric.hpp"
#include "models/network/chunk_fabric.hpp"
#include "models/network/network_context.hpp"

namespace rackscale::models::network {

std::unique_ptr<Fabric> make_fabric(NetworkContext& context) {
  if (context.spec.fidelity == Fidelity::chunk) return std::make_unique<ChunkFabric>(context);
  return std::make_unique<AnalyticalFabric>(context);
}

}  // namespace rackscale::models::network
