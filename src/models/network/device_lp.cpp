#include "models/network/device_lp.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/network_events.hpp"

namespace rackscale::models::network {

DeviceLp::DeviceLp(NodeId node, NetworkContext& network, std::unique_ptr<DeviceBehaviour> behaviour)
    : NetworkNodeLp(node, network), device_(network.topology->nodes[node].device), behaviour_(std::move(behaviour)) {
  if (device_ == kNoDevice) throw std::logic_error(fmt::format("node {} is not a device", node));
}

void DeviceLp::init() { behaviour_->start(*this); }

void DeviceLp::finish() { behaviour_->finish(*this); }

void DeviceLp::check_destination(std::uint32_t dst_device) {
  if (dst_device >= network().topology->device_count())
    throw std::out_of_range(fmt::format("device {} sent a message to device {}, but the cluster has {} devices",
                                        device_, dst_device, network().topology->device_count()));
}

MessageId DeviceLp::checked_id(std::uint64_t tag) const {
  if (tag > kMaxMessageTag)
    throw std::out_of_range(fmt::format("device {} sent a message with tag {:#x}, beyond 2^44 - 1", device_, tag));
  return make_message_id(device_, tag);
}

MessageId DeviceLp::send_message(std::uint32_t dst_device, std::uint64_t bytes, std::uint64_t flow,
                                 std::uint64_t tag, pdes::SimTime depart_after) {
  check_destination(dst_device);
  const Message message{checked_id(tag), device_, dst_device, bytes, flow, depart_after};
  network().fabric->send(*this, message);
  return message.id;
}

MessageId DeviceLp::send_own_message(std::uint32_t dst_device, std::uint64_t bytes, std::uint32_t label,
                                     std::uint64_t tag) {
  check_destination(dst_device);
  const Message message{checked_id(tag), device_, dst_device, bytes, sender_flow(device_, label), 0, true};
  network().fabric->send(*this, message);
  return message.id;
}

MessageId DeviceLp::send_signal(std::uint32_t dst_device, std::uint64_t tag, pdes::SimTime not_before) {
  check_destination(dst_device);
  const MessageId id = checked_id(tag);
  emit_arrival(network().topology->devices[dst_device], id, 0, not_before);
  return id;
}

MessageId DeviceLp::reduce_in_switch(std::uint32_t owner_device, std::uint32_t contributors, std::uint64_t bytes,
                                     std::uint64_t tag) {
  const MessageId id = checked_id(tag);
  send_reduce_contribution(*this, id, owner_device, contributors, bytes);
  return id;
}

MessageId DeviceLp::multicast(const MulticastGroup& group, std::uint64_t bytes, std::uint64_t tag) {
  const MessageId id = checked_id(tag);
  send_multicast(*this, id, group, bytes);
  return id;
}

void DeviceLp::schedule(pdes::SimTime delay, pdes::EventKind kind, const pdes::Payload& payload, std::uint32_t aux) {
  send(id(), delay, kind, payload, aux);
}

void DeviceLp::handle(const pdes::Event& event) {
  switch (event.kind) {
    case kChunkArrival:
    case kMessageArrival:
    case kTrainRun:
    case kTrainHeldRun:
    case kTrainCut:
    case kTrainComplete:
    case kTrainVoid:
      network().fabric->on_event(*this, event);
      break;
    case kMultimemDelivery: {
      const MultimemUnitArrival unit = decode_multimem_delivery(event);
      if (unit.units == 1 && unit.tail_after == 0) {  // a whole message, all in now
        behaviour_->on_delivery(*this, {unit.id, sender_of(unit.id), unit.bytes, tag_of(unit.id)});
      } else {
        Chunk chunk;
        chunk.message = unit.id;
        chunk.bytes = static_cast<std::uint32_t>(unit.bytes);  // a unit is at most 2 GiB
        chunk.chunks_in_message = unit.units;
        accept_unit(chunk, event.time + unit.tail_after);
      }
      break;
    }
    case kMessageComplete: {
      const auto arrival = event.as<MessageArrival>();
      accept_message(arrival.message, arrival.bytes);
      break;
    }
    default:
      behaviour_->on_event(*this, event);
  }
}

void DeviceLp::accept_unit(const Chunk& chunk, pdes::SimTime tail_at) {
  Reassembly& r = reassembly_[chunk.message];
  ++r.chunks;
  r.bytes += chunk.bytes;
  r.last_tail = std::max(r.last_tail, tail_at);
  if (r.chunks < chunk.chunks_in_message) return;
  // The message is complete when the last tail is in, which may be after this chunk's head.
  schedule(r.last_tail - now(), kMessageComplete, encode_message_arrival(chunk.message, r.bytes));
  reassembly_.erase(chunk.message);
}

void DeviceLp::accept_message(MessageId message, std::uint64_t bytes) {
  behaviour_->on_delivery(*this, {message, sender_of(message), bytes, tag_of(message)});
}

}  // namespace rackscale::models::network
