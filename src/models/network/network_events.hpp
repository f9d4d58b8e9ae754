#pragma once
// Event kinds the network uses, and how a chunk travels in an event's payload.
#include <cstdint>

#include "models/network/message.hpp"
#include "models/network/router.hpp"
#include "pdes/event.hpp"

namespace rackscale::models::network {

enum NetworkEventKind : pdes::EventKind {
  kChunkArrival = 1,     // a chunk reaches a node (chunk fidelity)
  kMessageArrival = 2,   // a whole message reaches its device (analytical fidelity)
  kMessageComplete = 3,  // self-event at the receiving device: the message's last byte is in
  // NVLink SHARP (switch_multimem.hpp), both fidelities:
  kMultimemReduce = 4,     // a unit of a contribution to an in-switch reduction reaches the scale-up switch
  kMultimemMulticast = 5,  // a unit of a multicast store reaches the scale-up switch
  kMultimemDelivery = 6,   // a unit of a reduced or multicast message reaches a device from its switch
  kMultimemSumReady = 7,   // self-event at a scale-up switch: a unit of a sum may start towards its owner
  // Chunk fidelity: the last chunk of a message reaches its destination device, standing for all of them
  // (payload: encode_message_tail). The node before the destination counts the chunks it forwards there
  // and sends only this one event per message, at the time the last chunk's own event would have had.
  kMessageTail = 8,
  // Device behaviours (traffic generators, accelerator programs) number their kinds from here.
  kFirstBehaviourKind = 100,
};

// A chunk in flight. The event's time is when its head reaches the node (cut-through) or when all of
// it has (store-and-forward); its tail follows `tail_after` later.
struct Chunk {
  MessageId message = 0;
  std::uint32_t dst_node = 0;
  std::uint32_t bytes = 0;
  std::uint32_t chunks_in_message = 0;
  std::uint32_t tail_after = 0;  // ps
  RouteTag tag;
};

// Payload layout: [0] message id, [1] dst node | tail_after << 32, [2] entropy,
// [3] (via | phase << 28) | chunks_in_message << 32; aux = bytes. Packing via and phase in 32 bits
// keeps a chunk inside the 64-byte event; it limits Valiant intermediate groups to 2^28 and router
// phases to 16, both checked.
[[nodiscard]] pdes::Payload encode_chunk(const Chunk& chunk, std::uint32_t& aux);
[[nodiscard]] Chunk decode_chunk(const pdes::Event& event);

// A whole message (analytical fidelity): [0] id, [1] bytes.
[[nodiscard]] pdes::Payload encode_message_arrival(MessageId id, std::uint64_t bytes) noexcept;

// kMessageTail: [0] id, [1] the message's bytes, [2] when its last byte is in, after the event's time.
struct MessageTail {
  MessageId message = 0;
  std::uint64_t bytes = 0;
  pdes::SimTime tail_after = 0;
};
[[nodiscard]] pdes::Payload encode_message_tail(const MessageTail& tail) noexcept;
[[nodiscard]] MessageTail decode_message_tail(const pdes::Event& event) noexcept;

}  // namespace rackscale::models::network
