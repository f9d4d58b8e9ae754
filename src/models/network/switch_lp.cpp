#include "models/network/switch_lp.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {

void SwitchLp::handle(const pdes::Event& event) {
  if (event.kind == kMultimemReduce || event.kind == kMultimemMulticast || event.kind == kMultimemSumReady) {
    if (!multimem_) multimem_ = std::make_unique<SwitchMultimem>(network().topology->nodes[node()].port_count);
    multimem_->on_event(*this, event);
    return;
  }
  // Messages are addressed to devices; one completing at a switch is a routing bug.
  if (event.kind == kMessageComplete)
    throw std::logic_error(fmt::format("switch node {} received the chunks of message {:#x} addressed to itself",
                                       node(), event.as<MessageArrival>().message));
  network().fabric->on_event(*this, event);
}

// Messages are addressed to devices; reaching a switch as a destination is a routing bug.
void SwitchLp::accept_message(MessageId message, std::uint64_t /*bytes*/) {
  throw std::logic_error(fmt::format("switch node {} received message {:#x} addressed to itself", node(), message));
}

}  // namespace rackscale::models::network
