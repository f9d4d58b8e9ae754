#pragma once
// A single-producer, single-consumer ring of events in memory shared by two processes (one rank
// writes, one reads). Positions are 64-bit counts that never wrap; the slot is the count modulo the
// capacity. The ring holds the slots and the consumer's position (`head`, released by the consumer
// when it frees slots). The producer's position (`tail`) lives where the caller puts it: the shared
// memory synchronizer keeps it on the producer's board, in the cache line the consumer polls anyway,
// so that seeing new events costs no extra line transfer (docs/engine.md).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "pdes/event.hpp"

namespace rackscale::pdes {

class SharedEventRing {
 public:
  using Position = std::atomic<std::uint64_t>;
  static_assert(Position::is_always_lock_free, "the ring's positions are shared between processes");

  // Bytes a ring of `capacity` events (a power of two) takes, header included.
  [[nodiscard]] static constexpr std::size_t bytes_for(std::size_t capacity) noexcept {
    return sizeof(SharedEventRing) + capacity * sizeof(Event);
  }

  // Builds an empty ring in `memory` (bytes_for(capacity) bytes, 64-byte aligned, owned by the caller).
  static SharedEventRing* create(void* memory, std::size_t capacity) noexcept {
    return new (memory) SharedEventRing(capacity);
  }
  // The ring another process created at this address (of the same shared segment).
  static SharedEventRing* at(void* memory) noexcept { return static_cast<SharedEventRing*>(memory); }

  // Producer: appends events [first, last) while there is room and publishes the new `tail` with
  // release order; returns how many it took. `known_head` is the producer's private copy of the
  // consumer's position, read again only when it leaves too little room, so a producer that stays
  // ahead of a busy consumer does not pull the consumer's cache line across every time.
  std::size_t push(const Event* first, const Event* last, Position& tail, std::uint64_t& known_head) noexcept {
    const auto wanted = static_cast<std::uint64_t>(last - first);
    const std::uint64_t end = tail.load(std::memory_order_relaxed);
    if (capacity_ - (end - known_head) < wanted) known_head = head_.load(std::memory_order_acquire);
    const std::uint64_t count = std::min(wanted, capacity_ - (end - known_head));
    if (count == 0) return 0;
    for (std::uint64_t i = 0; i < count; ++i) slots()[(end + i) & mask_] = first[i];
    tail.store(end + count, std::memory_order_release);
    for (std::uint64_t i = 0; i < count; ++i) hand_over(&slots()[(end + i) & mask_]);
    return static_cast<std::size_t>(count);
  }

  // Consumer: appends to `out` every event published up to `tail` (the producer's position, read here
  // with acquire order); returns how many.
  std::size_t pop_all(const Position& tail, std::vector<Event>& out) {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    const std::uint64_t end = tail.load(std::memory_order_acquire);
    if (end == head) return 0;
    for (std::uint64_t i = head; i != end; ++i) out.push_back(slots()[i & mask_]);
    head_.store(end, std::memory_order_release);
    return static_cast<std::size_t>(end - head);
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return static_cast<std::size_t>(capacity_); }

  // Producer: starts taking for writing the lines of the next `count` slots after `tail`, so that the
  // next push() finds them in this core's cache instead of waiting, at the window's end, for the
  // consumer's core to give them up (it read them when they last held events). A hint: PREFETCHW on
  // x86-64 (a no-op on processors without it), nothing elsewhere.
  void claim_next(const Position& tail, std::uint64_t count) noexcept {
    const std::uint64_t end = tail.load(std::memory_order_relaxed);
    for (std::uint64_t i = 0; i < count; ++i) {
      [[maybe_unused]] const void* line = &slots()[(end + i) & mask_];
#if defined(__x86_64__)
      asm volatile("prefetchw (%0)" ::"r"(line));
#endif
    }
  }

  // Moves a line this core just wrote out of its private caches to the shared last level (CLDEMOTE),
  // where the other core reads it sooner than from this core's cache. A hint: processors without
  // CLDEMOTE execute its encoding as a no-op, and other architectures have nothing here.
  static void hand_over([[maybe_unused]] const void* line) noexcept {
#if defined(__x86_64__)
    // Inline assembly rather than _cldemote(), which needs -mcldemote for the whole file.
    asm volatile("cldemote (%0)" ::"r"(line) : "memory");
#endif
  }

 private:
  explicit SharedEventRing(std::size_t capacity) noexcept : capacity_(capacity), mask_(capacity - 1) {}
  Event* slots() noexcept { return reinterpret_cast<Event*>(this + 1); }

  alignas(64) Position head_{0};  // written by the consumer
  alignas(64) std::uint64_t capacity_;
  std::uint64_t mask_;
};

static_assert(sizeof(SharedEventRing) % alignof(Event) == 0);

}  // namespace rackscale::pdes
