#include "models/accelerator/point_to_point.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"
#include "pdes/checkpoint_containers.hpp"

namespace rackscale::models::accelerator {

void PointToPoint::send(network::DeviceLp& device, std::uint32_t peer, std::uint64_t bytes, std::uint64_t flow,
                        std::uint64_t tag, OpIndex op) {
  waiting_ack_.emplace(tag | kAckBit, op);
  device.send_message(peer, bytes, flow, tag);
}

bool PointToPoint::receive(std::uint64_t tag, OpIndex op) {
  if (arrived_.erase(tag) > 0) return true;
  waiting_recv_.emplace(tag, op);
  return false;
}

std::optional<OpIndex> PointToPoint::on_delivery(network::DeviceLp& device, const network::Delivery& delivery,
                                                 collectives::CollectiveEngine& collectives) {
  switch (tag_class(delivery.tag)) {
    case TagClass::collective:
      collectives.on_delivery(device, delivery);
      return std::nullopt;
    case TagClass::pipeline:
      break;
    case TagClass::other:
      throw std::logic_error(fmt::format("device {} got message {:#x} from device {} that no op expects",
                                         device.device(), delivery.tag, delivery.src_device));
  }
  if ((delivery.tag & kAckBit) != 0) {
    const auto it = waiting_ack_.find(delivery.tag);
    if (it == waiting_ack_.end())
      throw std::logic_error(fmt::format("device {} got an acknowledgement {:#x} it did not ask for", device.device(),
                                         delivery.tag));
    const OpIndex op = it->second;
    waiting_ack_.erase(it);
    return op;
  }
  // A transfer's data: acknowledge it (the sender's send completes), then hand it to its receive.
  device.send_message(delivery.src_device, 0, delivery.tag, delivery.tag | kAckBit);
  if (const auto it = waiting_recv_.find(delivery.tag); it != waiting_recv_.end()) {
    const OpIndex op = it->second;
    waiting_recv_.erase(it);
    return op;
  }
  arrived_.insert(delivery.tag);
  return std::nullopt;
}

void PointToPoint::save(boost::archive::binary_oarchive& out) const {
  pdes::save_sorted(out, arrived_);
  pdes::save_sorted(out, waiting_recv_);
  pdes::save_sorted(out, waiting_ack_);
}

void PointToPoint::load(boost::archive::binary_iarchive& in) {
  pdes::load_sorted(in, arrived_);
  pdes::load_sorted(in, waiting_recv_);
  pdes::load_sorted(in, waiting_ack_);
}

}  // namespace rackscale::models::accelerator
