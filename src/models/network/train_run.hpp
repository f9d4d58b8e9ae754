#pragma once
// Train fidelity's unit (train_fabric.hpp): a run of consecutive chunks of one message that reach a node
// at a uniform pace, and what one output port makes of it. The arithmetic is chunk fidelity's
// (OutputPort::transmit, chunk by chunk); only the events are fewer.
#include <cstdint>
#include <limits>

#include "models/network/cluster_spec.hpp"
#include "models/network/message.hpp"
#include "models/network/output_port.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/router.hpp"
#include "pdes/event.hpp"

namespace rackscale::models::network {

// Chunks [first, first + count) of `message` as they reach a node: chunk first + i has its head here at
// head + i·pace. Its tail follows `pace` later (cut-through; 0 for store-and-forward), except the run's
// final chunk, whose tail follows `tail_end` later and which holds `bytes_end` bytes (a full chunk unless
// it is the message's last). That every chunk but the final one has the same tail is what makes a run:
// a port passes such a train on as one again (train_fabric.hpp, docs/network.md "train").
struct Run {
  MessageId message = 0;
  std::uint32_t dst = 0;  // destination node
  RouteTag tag;           // as the run reaches this node
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  pdes::SimTime head = 0;
  std::uint32_t pace = 0;
  std::uint32_t tail_end = 0;
  std::uint32_t bytes_end = 0;
  bool ends_message = false;  // the final chunk is the message's last

  [[nodiscard]] pdes::SimTime head_of(std::uint32_t i) const noexcept { return head + static_cast<pdes::SimTime>(pace) * i; }
  [[nodiscard]] pdes::SimTime last_head() const noexcept { return head_of(count - 1); }
  // The first `n` chunks (a chunk that was in the middle is full and keeps the middle's tail).
  [[nodiscard]] Run prefix(std::uint32_t n, Forwarding forwarding, std::uint64_t chunk_bytes) const noexcept;
  // The chunks from the n-th on.
  [[nodiscard]] Run suffix(std::uint32_t n) const noexcept;
};

struct TrainSettings {
  Forwarding forwarding = Forwarding::cut_through;
  std::uint64_t chunk_bytes = 0;
};

// What an output port did with the first `taken` chunks of a run.
struct Passage {
  std::uint32_t taken = 0;
  Run out;                     // those chunks as they reach the port's peer (first, dst, tag: the input's)
  pdes::SimTime free_after = 0;
  pdes::SimTime last_tail_at = 0;  // the last taken chunk's tail at the peer
  std::uint64_t bytes = 0;
};

// Serializes `in` on `port`, free from `free`, chunk by chunk, as chunk fidelity would, recording each
// chunk in `counters`. Takes chunks while their heads are no later than `limit` (a competitor known to
// arrive then) and while the output stays one run; the first chunk is always taken.
[[nodiscard]] Passage pass_port(const Run& in, pdes::SimTime free, const OutputPort& port,
                                const TrainSettings& settings, pdes::SimTime limit, PortCounters& counters);

// Takes back all but the first `keep` chunks of a run that `pass_port` took from `free`: their counters
// are undone, and the result says where the port and the kept chunks stand.
[[nodiscard]] Passage take_back(const Run& in, pdes::SimTime free, const OutputPort& port,
                                const TrainSettings& settings, std::uint32_t keep, PortCounters& counters);

// Event payloads. A run between nodes: [0] message, [1] entropy, [2] dst | phase << 32 | count << 36,
// [3] pace | tail_end << 32; aux = bytes_end | ends << 31. Its first chunk is implied: runs of a message
// reach a node in order (one path per message). A route tag with a Valiant `via` never travels in a run
// (Valiant routing is per chunk, carried by chunk fidelity's events).
[[nodiscard]] pdes::Payload encode_run(const Run& run, std::uint32_t& aux);
[[nodiscard]] Run decode_run(const pdes::Event& event);
// A run a node keeps for later (its own event): [0] message, [1] first | count << 32, [2] pace | tail_end
// << 32, [3] generation | (bytes_end | ends << 31) << 32; dst and tag are the node's record of the message.
[[nodiscard]] pdes::Payload encode_held_run(const Run& run, std::uint32_t generation);
[[nodiscard]] Run decode_held_run(const pdes::Event& event, std::uint32_t& generation);

}  // namespace rackscale::models::network
