#pragma once
// A message: bytes one device sends another. The network carries it whole (analytical fidelity) or
// as chunks (chunk fidelity) and tells the receiving device when the last byte has arrived.
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::network {

// The sending device's index in the high 20 bits, the sender's tag in the low 44. The sender's
// behaviour chooses the tag (unique among its messages in flight) and the receiver gets it back with
// the delivery, so it can tell which of the messages it expects has come, in whatever order they
// arrive. 20 bits allow 1,048,576 devices.
using MessageId = std::uint64_t;
inline constexpr unsigned kMessageTagBits = 44;
inline constexpr std::uint64_t kMaxMessageTag = (std::uint64_t{1} << kMessageTagBits) - 1;
inline constexpr std::uint64_t kMaxDevices = std::uint64_t{1} << (64 - kMessageTagBits);

[[nodiscard]] constexpr MessageId make_message_id(std::uint32_t src_device, std::uint64_t tag) noexcept {
  return (static_cast<MessageId>(src_device) << kMessageTagBits) | (tag & kMaxMessageTag);
}
[[nodiscard]] constexpr std::uint32_t sender_of(MessageId id) noexcept {
  return static_cast<std::uint32_t>(id >> kMessageTagBits);
}
[[nodiscard]] constexpr std::uint64_t tag_of(MessageId id) noexcept { return id & kMaxMessageTag; }

struct Message {
  MessageId id = 0;
  std::uint32_t src_device = 0;
  std::uint32_t dst_device = 0;
  std::uint64_t bytes = 0;
  std::uint64_t flow = 0;  // ECMP flow label: messages with the same label take the same path
  // How long after the send the message leaves the device: a sender-side port queue ahead of it
  // (collectives/send_pacer.hpp). Analytical fidelity only, where a path's time does not depend on when
  // a message takes it, so leaving later is the send delayed; the chunk fidelity queues at the port itself.
  pdes::SimTime depart_after = 0;
  // The label is the sender's own (DeviceLp::send_own_message): sender_flow(src_device, label). In a
  // one-replica run a twin's message carries its own sender's label (replica_mirror.hpp).
  bool flow_names_sender = false;
};

// The flow label of a device's own transfer `label`: the sender's index above the label, so that the
// same label from different senders hashes apart.
[[nodiscard]] constexpr std::uint64_t sender_flow(std::uint32_t device, std::uint32_t label) noexcept {
  return (static_cast<std::uint64_t>(device) << 32) | label;
}

// What the receiving device learns when a message has fully arrived.
struct Delivery {
  MessageId id = 0;
  std::uint32_t src_device = 0;
  std::uint64_t bytes = 0;
  std::uint64_t tag = 0;  // the sender's tag (tag_of(id))
};

}  // namespace rackscale::models::network
