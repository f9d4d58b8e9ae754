#pragma once
// Storage shared by the compact queues: events live in a slot pool and the queue structures move
// 16-byte entries that carry just enough of the ordering key to decide almost every comparison
// without touching the 64-byte event. A slot is reused last-in-first-out, so in a steady state
// (pop one, push one) the event written by push lands in the cache line the pop just read.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "pdes/event.hpp"

namespace rackscale::pdes {

// Allocator for the queues' big arrays. Blocks start on a cache line (so a 4-ary heap's sibling
// groups and the pool's events each fill exactly one line). Large blocks are 2 MiB-aligned and
// offered to transparent huge pages: a queue of millions of events is touched at random, and with
// 4 KiB pages nearly every access would also miss the TLB.
template <class T>
struct QueueAllocator {
  using value_type = T;
  QueueAllocator() = default;
  template <class U>
  explicit QueueAllocator(const QueueAllocator<U>& /*other*/) noexcept {}

  [[nodiscard]] T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    const std::align_val_t align = bytes >= kHugeThreshold ? kHugePage : kCacheLine;
    void* p = ::operator new(bytes, align);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Only advice: without THP support the call fails and the block keeps its normal pages.
    if (bytes >= kHugeThreshold) (void)::madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    ::operator delete(p, n * sizeof(T) >= kHugeThreshold ? kHugePage : kCacheLine);
  }
  template <class U>
  bool operator==(const QueueAllocator<U>& /*other*/) const noexcept {
    return true;
  }

 private:
  static constexpr std::align_val_t kCacheLine{64};
  static constexpr std::align_val_t kHugePage{std::size_t{2} << 20};
  static constexpr std::size_t kHugeThreshold = std::size_t{4} << 20;
};

// Index of an event in an EventPool; 32 bits keep QueueEntry at 16 bytes.
using EventSlot = std::uint32_t;

class EventPool {
 public:
  // Stores a copy of `event` and returns its slot. Throws std::length_error past 2^32-1 live slots.
  [[nodiscard]] EventSlot acquire(const Event& event) {
    if (!free_.empty()) {
      const EventSlot slot = free_.back();
      free_.pop_back();
      events_[slot] = event;
      return slot;
    }
    if (events_.size() >= kMaxSlots) throw std::length_error("EventPool: more than 2^32-1 events");
    events_.push_back(event);
    return static_cast<EventSlot>(events_.size() - 1);
  }

  // The slot's event stays readable until the next acquire().
  void release(EventSlot slot) { free_.push_back(slot); }

  [[nodiscard]] const Event& operator[](EventSlot slot) const { return events_[slot]; }

  // Starts loading the event the next pop will copy out, so that miss overlaps the caller's work
  // (handling the event just popped) instead of stalling the next pop.
  void prefetch(EventSlot slot) const noexcept { __builtin_prefetch(events_.data() + slot); }
  [[nodiscard]] std::size_t live() const { return events_.size() - free_.size(); }

 private:
  static constexpr std::size_t kMaxSlots = std::numeric_limits<EventSlot>::max();
  std::vector<Event, QueueAllocator<Event>> events_;
  std::vector<EventSlot> free_;
};

// (time, src) are copied into the entry because they decide the order unless two events share both;
// only then is seq read from the pool (a cache miss we want to be rare).
struct QueueEntry {
  SimTime time;
  LpId src;
  EventSlot slot;
};
static_assert(sizeof(QueueEntry) == 16, "four entries per cache line");
static_assert(std::is_trivially_copyable_v<QueueEntry>);

[[nodiscard]] inline QueueEntry make_entry(const Event& event, EventSlot slot) noexcept {
  return QueueEntry{event.time, event.src, slot};
}

// pdes::before() on the entries' events.
[[nodiscard]] inline bool entry_before(const QueueEntry& a, const QueueEntry& b,
                                       const EventPool& pool) noexcept {
  if (a.time != b.time) return a.time < b.time;
  if (a.src != b.src) return a.src < b.src;
  return pool[a.slot].seq < pool[b.slot].seq;
}

}  // namespace rackscale::pdes
