#pragma once
// An output port: the serializer of one direction of a cable, with a FIFO queue in front of it. The
// queue is implicit: chunks are handled in arrival order, so a port only needs the time at which it
// becomes free (a chunk that arrives earlier waits until then). Infinite buffers: no drops, no
// back-pressure (see docs/network.md).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::network {

// Serialization time of `bytes` at `bandwidth` bytes/s, rounded up to whole picoseconds.
[[nodiscard]] inline pdes::SimTime serialization_time(std::uint64_t bytes, double bandwidth) noexcept {
  return static_cast<pdes::SimTime>(std::ceil(static_cast<double>(bytes) * 1e12 / bandwidth));
}

struct Transmission {
  pdes::SimTime start = 0;   // first bit leaves the port
  pdes::SimTime finish = 0;  // last bit leaves the port
};

struct OutputPort {
  pdes::SimTime free_at = 0;  // when the serializer finishes what it has accepted so far
  // serialization_time of a full chunk (network.chunk_size) at this port's bandwidth, kept next to
  // free_at: every chunk of a message but its last is full, and the division is the hottest
  // arithmetic of a chunk's hop. 0 where nobody set it (then it is computed each time).
  pdes::SimTime full_chunk_serialize = 0;
  // Copies of the topology's figures for this port (set by the node's LP), so that a chunk's hop reads
  // one record instead of this one, the node's and the port's in the topology (three cache lines).
  pdes::SimTime latency = 0;  // Port::latency
  double bandwidth = 0;       // Port::bandwidth
  std::uint32_t peer = 0;     // Port::peer
  std::uint32_t id = 0;       // Topology::port_id

  // A chunk whose head is ready at `head` and whose tail follows `tail_after` later (cut-through:
  // the previous link's pace; 0 when the whole chunk is already here) takes `serialize` on this port.
  // It starts when both it and the port are ready and cannot finish before its tail has arrived.
  Transmission transmit(pdes::SimTime head, pdes::SimTime tail_after, pdes::SimTime serialize) noexcept {
    const pdes::SimTime start = std::max(head, free_at);
    const pdes::SimTime finish = std::max(start + serialize, head + tail_after);
    free_at = finish;
    return {start, finish};
  }
};

}  // namespace rackscale::models::network
