#pragma once
// The event record. Every event is a fixed-size, trivially copyable 64-byte record, so the hot path
// moves events between ranks as raw bytes and through queues without serialization.
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "pdes/time.hpp"

namespace rackscale::pdes {

// Global id of a logical process; the same on every rank.
using LpId = std::uint32_t;
inline constexpr LpId kNoLp = 0xFFFF'FFFFu;

// Model-defined event type (the engine never interprets it).
using EventKind = std::uint32_t;

// Model-defined data carried by an event: four 64-bit words.
using Payload = std::array<std::uint64_t, 4>;

// A model's record carried in a payload: any trivially copyable struct of at most 32 bytes. Models
// declare one struct per event kind and read it back with Event::as<T>(), instead of indexing words by
// hand. Records are copied in and out, never aliased, so their layout and alignment are free.
template <class T>
concept PayloadRecord = std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(Payload);

template <PayloadRecord T>
[[nodiscard]] Payload to_payload(const T& record) noexcept {
  Payload payload{};
  std::memcpy(payload.data(), static_cast<const void*>(&record), sizeof(T));
  return payload;
}

struct Event {
  SimTime time = 0;         // when the destination handles it (ps)
  LpId dst = kNoLp;         // destination LP
  LpId src = kNoLp;         // sending LP
  std::uint64_t seq = 0;    // per-source sequence number: the order in which src sent its events
  EventKind kind = 0;       // model-defined
  std::uint32_t aux = 0;    // model-defined small field
  Payload payload{};        // model-defined

  // The payload as the record `T` it was sent with (to_payload).
  template <PayloadRecord T>
  [[nodiscard]] T as() const noexcept {
    T record;
    // Through void*: a record with default member initializers is still trivially copyable.
    std::memcpy(static_cast<void*>(&record), payload.data(), sizeof(T));
    return record;
  }
};

static_assert(std::is_trivially_copyable_v<Event>);
static_assert(std::is_standard_layout_v<Event>);
static_assert(sizeof(Event) == 64, "events are one cache line; keep the payload within it");

// The engine's processing order: (time, source LP, source sequence). (src, seq) is unique per event,
// so this is a total order and the order in which an LP sees its events never depends on how LPs are
// spread over ranks or on the queue implementation.
[[nodiscard]] constexpr bool before(const Event& a, const Event& b) noexcept {
  if (a.time != b.time) return a.time < b.time;
  if (a.src != b.src) return a.src < b.src;
  return a.seq < b.seq;
}

}  // namespace rackscale::pdes
