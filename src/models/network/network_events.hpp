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
  // A message's last byte is in at its device (payload: encode_message_arrival). Chunk fidelity: sent by
  // the node before the destination, which counts the chunks it forwards there, once per message; NVLS
  // deliveries in parts: the device's own, when the last part is in.
  kMessageComplete = 3,
  // NVLink SHARP (switch_multimem.hpp), both fidelities:
  kMultimemReduce = 4,     // a unit of a contribution to an in-switch reduction reaches the scale-up switch
  kMultimemMulticast = 5,  // a unit of a multicast store reaches the scale-up switch
  kMultimemDelivery = 6,   // a unit of a reduced or multicast message reaches a device from its switch
  kMultimemSumReady = 7,   // self-event at a scale-up switch: a unit of a sum may start towards its owner
  // Train fidelity (train_fabric.hpp):
  kTrainRun = 8,       // a run of chunks of a message reaches a node (payload: encode_run)
  kTrainHeldRun = 9,   // self-event: a run the node kept back reaches its port (encode_held_run; aux: port)
  kTrainCut = 10,      // the node before took back chunks of one of its runs (TrainCut)
  kTrainComplete = 11, // to the destination: the message's last byte is in, unless voided (TrainComplete)
  kTrainVoid = 12,     // to the destination: a kTrainComplete on its way will not hold (TrainVoid)
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

// In the event: the chunk's fields as one 32-byte record, with the via group and phase packed in 32 bits,
// and its bytes in aux. Packing via and phase keeps a chunk inside the 64-byte event; it limits Valiant
// intermediate groups to 2^28 and router phases to 16, both checked.
[[nodiscard]] pdes::Payload encode_chunk(const Chunk& chunk, std::uint32_t& aux);
[[nodiscard]] Chunk decode_chunk(const pdes::Event& event);

// Train fidelity (train_fabric.hpp): the node before took back the chunks from `first_taken` on of its
// `run_number`-th run of `message`.
struct TrainCut {
  MessageId message = 0;
  std::uint32_t first_taken = 0;
  std::uint32_t run_number = 0;
};
// Train fidelity: sent by the node before the destination when the message's last chunk passed its port
// before that chunk's head was in. A competitor arriving in between could still take chunks back; if
// one does, a TrainVoid with the same token follows it (and always arrives before it); the token tells a
// voided completion from the message's next one, which may be due at the same picosecond.
struct TrainComplete {
  MessageId message = 0;
  std::uint64_t bytes = 0;
  std::uint32_t token = 0;
};
// Train fidelity: the TrainComplete of `message` with `token` will not hold.
struct TrainVoid {
  MessageId message = 0;
  std::uint32_t token = 0;
};

// A whole message (analytical fidelity; kMessageComplete in both).
struct MessageArrival {
  MessageId message = 0;
  std::uint64_t bytes = 0;
};
[[nodiscard]] pdes::Payload encode_message_arrival(MessageId id, std::uint64_t bytes) noexcept;

}  // namespace rackscale::models::network
