#include "models/network/train_run.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {
namespace {
constexpr std::uint64_t kU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kCountBits = 28;
constexpr std::uint32_t kEndsBit = 1u << 31;
constexpr std::uint32_t kNoVia = 0xFFFF'FFFFu;

std::uint32_t tail_of_middle(const Run& run, Forwarding forwarding) {
  return forwarding == Forwarding::cut_through ? run.pace : 0;
}

// Chunk i of `in` on `port` from `free`: what OutputPort::transmit and the chunk fabric's hop compute.
struct Hop {
  pdes::SimTime head = 0;
  pdes::SimTime serialize = 0;
  std::uint64_t bytes = 0;
  Transmission tx;
  pdes::SimTime out_head = 0;  // when it may leave the peer (the peer's event time in chunk fidelity)
  pdes::SimTime out_tail = 0;  // its tail_after there
};

Hop hop(const Run& in, std::uint32_t i, pdes::SimTime free, const OutputPort& port, const TrainSettings& s) {
  Hop h;
  const bool final = i + 1 == in.count;
  h.head = in.head_of(i);
  h.bytes = final ? in.bytes_end : s.chunk_bytes;
  const pdes::SimTime tail_after = final ? in.tail_end : tail_of_middle(in, s.forwarding);
  h.serialize = h.bytes == s.chunk_bytes && port.full_chunk_serialize > 0 ? port.full_chunk_serialize
                                                                          : serialization_time(h.bytes, port.bandwidth);
  OutputPort copy = port;
  copy.free_at = free;
  h.tx = copy.transmit(h.head, tail_after, h.serialize);
  if (s.forwarding == Forwarding::cut_through) {
    h.out_tail = h.tx.finish - h.tx.start;
    h.out_head = h.tx.start + port.latency;
  } else {
    h.out_head = h.tx.finish + port.latency;
  }
  if (h.out_tail > kU32)
    throw std::overflow_error(fmt::format("a {}-byte chunk takes {} ps on a {} B/s link, beyond 2^32 ps: use a smaller "
                                          "network.chunk_size",
                                          h.bytes, h.out_tail, port.bandwidth));
  return h;
}
}  // namespace

Run Run::prefix(std::uint32_t n, Forwarding forwarding, std::uint64_t chunk_bytes) const noexcept {
  Run r = *this;
  if (n >= count) return r;
  r.count = n;
  r.tail_end = tail_of_middle(*this, forwarding);
  r.bytes_end = static_cast<std::uint32_t>(chunk_bytes);
  r.ends_message = false;
  return r;
}

Run Run::suffix(std::uint32_t n) const noexcept {
  Run r = *this;
  r.head = head_of(n);
  r.first = first + n;
  r.count = count - n;
  return r;
}

Passage pass_port(const Run& in, pdes::SimTime free, const OutputPort& port, const TrainSettings& settings,
                  pdes::SimTime limit, PortCounters& counters) {
  Passage p;
  pdes::SimTime pace = 0;
  pdes::SimTime first_out_head = 0;
  Hop last;
  for (std::uint32_t i = 0; i < in.count; ++i) {
    if (i > 0 && in.head_of(i) > limit) break;
    const Hop h = hop(in, i, free, port, settings);
    if (i == 1) {
      pace = h.out_head - last.out_head;
      const pdes::SimTime middle = settings.forwarding == Forwarding::cut_through ? pace : 0;
      if (pace > kU32 || last.out_tail != middle) break;
    } else if (i > 1) {
      const pdes::SimTime middle = settings.forwarding == Forwarding::cut_through ? pace : 0;
      if (h.out_head - last.out_head != pace || last.out_tail != middle) break;
    }
    counters.record(port.id, h.bytes, h.serialize, h.tx.start - h.head);
    free = h.tx.finish;
    p.bytes += h.bytes;
    if (i == 0) first_out_head = h.out_head;
    last = h;
    p.taken = i + 1;
  }
  // The taken chunks' identity and sizes are the input's; their times are the output's.
  p.out = in.prefix(p.taken, settings.forwarding, settings.chunk_bytes);
  p.out.head = first_out_head;
  p.out.pace = p.taken > 1 ? static_cast<std::uint32_t>(pace) : 0;
  p.out.tail_end = static_cast<std::uint32_t>(last.out_tail);
  p.free_after = free;
  p.last_tail_at = last.tx.finish + port.latency;
  return p;
}

Passage take_back(const Run& in, pdes::SimTime free, const OutputPort& port, const TrainSettings& settings,
                  std::uint32_t keep, PortCounters& counters) {
  Passage p;
  p.taken = keep;
  for (std::uint32_t i = 0; i < in.count; ++i) {
    const Hop h = hop(in, i, free, port, settings);
    free = h.tx.finish;
    if (i < keep) {
      p.free_after = free;
      p.last_tail_at = h.tx.finish + port.latency;
    } else {
      counters.unrecord(port.id, h.bytes, h.serialize, h.tx.start - h.head);
      p.bytes += h.bytes;  // the bytes taken back
    }
  }
  return p;
}

namespace {
// kTrainRun's record; the run's byte end and whether it ends the message travel in aux.
struct RunRecord {
  MessageId message;
  std::uint64_t entropy;
  std::uint32_t dst;
  std::uint32_t phase_and_count;  // phase | count << 4
  std::uint32_t pace;
  std::uint32_t tail_end;
};
static_assert(sizeof(RunRecord) == sizeof(pdes::Payload));
// kTrainHeldRun's record.
struct HeldRunRecord {
  MessageId message;
  std::uint32_t first;
  std::uint32_t count;
  std::uint32_t pace;
  std::uint32_t tail_end;
  std::uint32_t generation;
  std::uint32_t end;  // bytes_end | kEndsBit
};
static_assert(sizeof(HeldRunRecord) == sizeof(pdes::Payload));
}  // namespace

pdes::Payload encode_run(const Run& run, std::uint32_t& aux) {
  if (run.tag.via != kNoVia || run.tag.phase > 0xF || run.count >= (1u << kCountBits) || run.bytes_end >= kEndsBit)
    throw std::logic_error(fmt::format("train fidelity: run of message {:#x} out of range (via {}, phase {}, {} chunks, "
                                       "{} bytes)",
                                       run.message, run.tag.via, run.tag.phase, run.count, run.bytes_end));
  aux = run.bytes_end | (run.ends_message ? kEndsBit : 0);
  return pdes::to_payload(
      RunRecord{run.message, run.tag.entropy, run.dst, run.tag.phase | (run.count << 4), run.pace, run.tail_end});
}

Run decode_run(const pdes::Event& event) {
  const auto r = event.as<RunRecord>();
  Run run;
  run.message = r.message;
  run.tag.entropy = r.entropy;
  run.dst = r.dst;
  run.tag.phase = r.phase_and_count & 0xF;
  run.count = r.phase_and_count >> 4;
  run.pace = r.pace;
  run.tail_end = r.tail_end;
  run.bytes_end = event.aux & ~kEndsBit;
  run.ends_message = (event.aux & kEndsBit) != 0;
  run.head = event.time;
  return run;
}

pdes::Payload encode_held_run(const Run& run, std::uint32_t generation) {
  const std::uint32_t end = run.bytes_end | (run.ends_message ? kEndsBit : 0);
  return pdes::to_payload(HeldRunRecord{run.message, run.first, run.count, run.pace, run.tail_end, generation, end});
}

Run decode_held_run(const pdes::Event& event, std::uint32_t& generation) {
  const auto r = event.as<HeldRunRecord>();
  Run run;
  run.message = r.message;
  run.first = r.first;
  run.count = r.count;
  run.pace = r.pace;
  run.tail_end = r.tail_end;
  generation = r.generation;
  const std::uint32_t end = r.end;
  run.bytes_end = end & ~kEndsBit;
  run.ends_message = (end & kEndsBit) != 0;
  run.head = event.time;
  return run;
}

}  // namespace rackscale::models::network
