#include "models/network/train_run.hpp"

#include <algorithm>
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

// Middle chunks i, i + 1, ... of `in` after chunk i - 1 started at `prev_start` having waited `prev_wait`
// (its head to its start): how many of them, below `end`, follow the port's steady state, which is then
// known without serving them one by one. Each middle chunk is full (serialized in `s`) and its tail follows
// the run's pace p later, so with start_j = max(h_j, finish_{j-1}):
//  - no queue (prev_wait = 0) and p >= s: every chunk starts at its head (finish_j = h_j + p, or h_j + s
//    store-and-forward, no later than h_{j+1}); step p, waits 0;
//  - otherwise: start_j = start_{j-1} + s while that is no earlier than h_j, i.e. while the wait
//    w_j = w_{j-1} + s - p stays >= 0 (forever if s >= p); step s.
// In both, chunk j finishes at start_j + step (cut-through) or start_j + s (store-and-forward), and its
// output is uniform with the step as pace: what pass_port's chunk-by-chunk loop would find.
struct Stretch {
  std::uint32_t count = 0;
  pdes::SimTime step = 0;
  std::int64_t wait_change = 0;  // w_j - w_{j-1}
};
Stretch steady_stretch(const Run& in, std::uint32_t i, std::uint32_t end, pdes::SimTime prev_wait, pdes::SimTime s) {
  Stretch st;
  if (end <= i) return st;
  const std::uint32_t available = end - i;
  const pdes::SimTime p = in.pace;
  if (prev_wait == 0 && p >= s) {
    st.count = available;
    st.step = p;
    return st;
  }
  st.step = s;
  st.wait_change = static_cast<std::int64_t>(s) - static_cast<std::int64_t>(p);
  st.count = s >= p ? available
                    : static_cast<std::uint32_t>(std::min<pdes::SimTime>(available, prev_wait / (p - s)));
  return st;
}

// The first `n` chunks of a stretch whose chunk before started at `prev_start` having waited `prev_wait`:
// their waits summed (mod 2^64, as adding them one by one would) and the last one's finish. Their longest
// wait is not needed: the waits change by a constant step, so none exceeds both the chunk's before and
// the chunk's after, which are served (and counted) one by one.
struct StretchPart {
  std::uint64_t waited = 0;
  pdes::SimTime finish = 0;
};
StretchPart stretch_part(const Stretch& st, std::uint32_t n, pdes::SimTime prev_start, pdes::SimTime prev_wait,
                         pdes::SimTime s, Forwarding forwarding) {  // n >= 1
  StretchPart part;
  const auto d = static_cast<std::uint64_t>(st.wait_change);  // two's complement: the sums wrap as one by one
  const std::uint64_t triangle = static_cast<std::uint64_t>(n) * (n + 1) / 2;
  part.waited = n * prev_wait + d * triangle;
  const pdes::SimTime start = prev_start + static_cast<pdes::SimTime>(n) * st.step;
  part.finish = start + (forwarding == Forwarding::cut_through ? st.step : s);
  return part;
}

pdes::SimTime full_chunk_time(const OutputPort& port, const TrainSettings& s) {
  return port.full_chunk_serialize > 0 ? port.full_chunk_serialize : serialization_time(s.chunk_bytes, port.bandwidth);
}

// The index past the last chunk of `in` whose head is no later than `limit`.
std::uint32_t heads_until(const Run& in, pdes::SimTime limit) {
  if (in.head > limit) return 0;
  if (in.pace == 0) return in.count;
  return static_cast<std::uint32_t>(std::min<pdes::SimTime>(in.count, (limit - in.head) / in.pace + 1));
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
  const pdes::SimTime s = full_chunk_time(port, settings);
  // Chunks below it are middle chunks with heads no later than `limit`: steady stretches may skip them.
  const std::uint32_t middle_end = std::min(in.count - 1, std::max<std::uint32_t>(1, heads_until(in, limit)));
  for (std::uint32_t i = 0; i < in.count; ++i) {
    if (i > 0 && in.head_of(i) > limit) break;
    if (i >= 2) {  // the output's pace is known: skip what the steady state decides, all but its last chunk
      const pdes::SimTime prev_wait = last.tx.start - last.head;
      const Stretch st = steady_stretch(in, i, middle_end, prev_wait, s);
      if (st.step == pace && st.count > 1) {
        const std::uint32_t n = st.count - 1;
        const StretchPart part = stretch_part(st, n, last.tx.start, prev_wait, s, settings.forwarding);
        counters.record_many(port.id, n, n * settings.chunk_bytes, n * s, part.waited);
        p.bytes += n * settings.chunk_bytes;
        free = part.finish;
        // Chunk i + n - 1 as the next hop's checks read it (its tail, middle, is the one before's).
        last.tx = {last.tx.start + n * st.step, part.finish};
        last.head = in.head_of(i + n - 1);
        last.out_head += n * st.step;
        i += n;
        p.taken = i;
      }
    }
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
  const pdes::SimTime s = full_chunk_time(port, settings);
  Hop last;
  for (std::uint32_t i = 0; i < in.count; ++i) {
    if (i >= 1) {  // skip what the steady state decides, all but its last chunk, on one side of `keep`
      const pdes::SimTime prev_wait = last.tx.start - last.head;
      const std::uint32_t end = i < keep ? std::min(keep, in.count - 1) : in.count - 1;
      const Stretch st = steady_stretch(in, i, end, prev_wait, s);
      if (st.count > 1) {
        const std::uint32_t n = st.count - 1;
        const StretchPart part = stretch_part(st, n, last.tx.start, prev_wait, s, settings.forwarding);
        if (i >= keep) {
          counters.unrecord_many(port.id, n, n * settings.chunk_bytes, n * s, part.waited);
          p.bytes += n * settings.chunk_bytes;
        }
        free = part.finish;
        last.tx = {last.tx.start + n * st.step, part.finish};
        last.head = in.head_of(i + n - 1);
        i += n;
      }
    }
    const Hop h = hop(in, i, free, port, settings);
    free = h.tx.finish;
    if (i < keep) {
      p.free_after = free;
      p.last_tail_at = h.tx.finish + port.latency;
    } else {
      counters.unrecord(port.id, h.bytes, h.serialize, h.tx.start - h.head);
      p.bytes += h.bytes;  // the bytes taken back
    }
    last = h;
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
