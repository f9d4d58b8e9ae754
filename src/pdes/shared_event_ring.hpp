#pragma once
// A single-producer, single-consumer ring of events in memory shared by two processes (one rank
// writes, one reads). Positions are 64-bit counts that never wrap; the slot is the count modulo the
// capacity. The producer publishes a filled slot with a release store of `tail`, the consumer frees
// it with a release store of `head`, each on its own cache line so the two sides do not share one.
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

  // Producer: appends events [first, last) while there is room; returns how many it took. The
  // consumer's position is read only when the last one read leaves too little room, so a producer
  // that stays ahead of a busy consumer does not pull the consumer's cache line across every time.
  std::size_t push(const Event* first, const Event* last) noexcept {
    const auto wanted = static_cast<std::uint64_t>(last - first);
    const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    if (capacity_ - (tail - producer_head_) < wanted) producer_head_ = head_.load(std::memory_order_acquire);
    const std::uint64_t count = std::min(wanted, capacity_ - (tail - producer_head_));
    if (count == 0) return 0;
    for (std::uint64_t i = 0; i < count; ++i) slots()[(tail + i) & mask_] = first[i];
    tail_.store(tail + count, std::memory_order_release);
    return static_cast<std::size_t>(count);
  }

  // Consumer: appends every published event to `out`; returns how many.
  std::size_t pop_all(std::vector<Event>& out) {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    const std::uint64_t tail = tail_.load(std::memory_order_acquire);
    if (tail == head) return 0;
    for (std::uint64_t i = head; i != tail; ++i) out.push_back(slots()[i & mask_]);
    head_.store(tail, std::memory_order_release);
    return static_cast<std::size_t>(tail - head);
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return static_cast<std::size_t>(capacity_); }

 private:
  explicit SharedEventRing(std::size_t capacity) noexcept : capacity_(capacity), mask_(capacity - 1) {}
  Event* slots() noexcept { return reinterpret_cast<Event*>(this + 1); }

  static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the ring's counters are shared between processes");
  alignas(64) std::atomic<std::uint64_t> head_{0};  // written by the consumer
  alignas(64) std::atomic<std::uint64_t> tail_{0};  // written by the producer
  std::uint64_t producer_head_ = 0;                   // the producer's last reading of head_
  alignas(64) std::uint64_t capacity_;
  std::uint64_t mask_;
};

static_assert(sizeof(SharedEventRing) % alignof(Event) == 0);

}  // namespace rackscale::pdes
