#include "models/network/fabric.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/network/fidelity.hpp"
#include "models/network/network_context.hpp"
#include "models/network/network_node_lp.hpp"

namespace rackscale::models::network {

std::unique_ptr<Fabric> make_fabric(NetworkContext& context) {
  return fidelity_info(context.spec.fidelity).make(context);
}

bool send_without_links(NetworkNodeLp& source, const Message& message, NodeId src, NodeId dst) {
  if (src != dst && message.bytes != 0) return false;
  if (message.depart_after != 0)  // the pacer holds only messages that load a port
    throw std::logic_error(fmt::format("a message of {} bytes from device {} to device {} was held {} ps before leaving",
                                       message.bytes, message.src_device, message.dst_device, message.depart_after));
  source.emit_arrival(dst, message.id, message.bytes);
  return true;
}

}  // namespace rackscale::models::network
