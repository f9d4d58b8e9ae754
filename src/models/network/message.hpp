#pragma once
// A message: bytes one device sends another. The network carries it whole (analytical fidelity) or
// as chunks (chunk fidelity) and tells the receiving device when the last byte has arrived.
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::network {

// Unique over a run: the sending device's index in the high 32 bits, the sender's own message
// counter in the low 32.
using MessageId = std::uint64_t;

[[nodiscard]] constexpr MessageId make_message_id(std::uint32_t src_device, std::uint32_t sequence) noexcept {
  return (static_cast<MessageId>(src_device) << 32) | sequence;
}
[[nodiscard]] constexpr std::uint32_t sender_of(MessageId id) noexcept { return static_cast<std::uint32_t>(id >> 32); }

struct Message {
  MessageId id = 0;
  std::uint32_t src_device = 0;
  std::uint32_t dst_device = 0;
  std::uint64_t bytes = 0;
  std::uint64_t flow = 0;  // ECMP flow label: messages with the same label take the same path
};

// What the receiving device learns when a message has fully arrived.
struct Delivery {
  MessageId id = 0;
  std::uint32_t src_device = 0;
  std::uint64_t bytes = 0;
};

}  // namespace rackscale::models::network
