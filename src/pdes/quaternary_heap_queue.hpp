#pragma once
// A 4-ary min-heap of 16-byte entries over an EventPool. Against the binary heap of whole events it
// halves the depth and moves a quarter of the bytes per level, and the four children of a node
// share one cache line, so a pop touches about log4(n) lines instead of log2(n).
#include <cstddef>
#include <vector>

#include "pdes/event_pool.hpp"
#include "pdes/event_queue.hpp"

namespace rackscale::pdes {

// The heap itself, apart from the pool, so LadderQueue can reuse it for late arrivals in Bottom.
class QuaternaryEntryHeap {
 public:
  [[nodiscard]] bool empty() const noexcept { return heap_.size() == kRootIndex; }
  [[nodiscard]] std::size_t size() const noexcept { return heap_.size() - kRootIndex; }
  [[nodiscard]] const QueueEntry& top() const noexcept { return heap_[kRootIndex]; }

  void push(QueueEntry entry, const EventPool& pool) {
    heap_.push_back(entry);
    sift_up(heap_.size() - 1, entry, pool);
  }

  // Removes and returns the first entry. Precondition: !empty().
  QueueEntry pop(const EventPool& pool) {
    const QueueEntry first = heap_[kRootIndex];
    const QueueEntry last = heap_.back();
    heap_.pop_back();
    if (!empty()) sift_down_from_root(last, pool);
    return first;
  }

 private:
  // The root sits at index 3 so that children 4k+4 .. 4k+7 of node k+3 start on a cache line.
  static constexpr std::size_t kRootIndex = 3;
  static constexpr std::size_t kArity = 4;
  // Below this many entries (256 KiB) the heap stays in L2 and prefetching only costs instructions.
  static constexpr std::size_t kPrefetchFrom = std::size_t{1} << 14;
  static constexpr std::size_t parent(std::size_t i) noexcept { return i / kArity + 2; }
  static constexpr std::size_t first_child(std::size_t i) noexcept { return (i - 2) * kArity; }

  void sift_up(std::size_t hole, QueueEntry entry, const EventPool& pool) noexcept {
    while (hole > kRootIndex) {
      const std::size_t up = parent(hole);
      if (!entry_before(entry, heap_[up], pool)) break;
      heap_[hole] = heap_[up];
      hole = up;
    }
    heap_[hole] = entry;
  }

  void sift_down_from_root(QueueEntry entry, const EventPool& pool) noexcept;

  std::vector<QueueEntry, QueueAllocator<QueueEntry>> heap_ =
      std::vector<QueueEntry, QueueAllocator<QueueEntry>>(kRootIndex, QueueEntry{0, 0, 0});
};

// Hole technique: entries move up into the hole; `entry` is written once, where it comes to rest.
inline void QuaternaryEntryHeap::sift_down_from_root(QueueEntry entry,
                                                     const EventPool& pool) noexcept {
  const std::size_t end = heap_.size();
  std::size_t hole = kRootIndex;
  for (;;) {
    const std::size_t c = first_child(hole);
    std::size_t m = c;
    if (c + kArity <= end) {
      // The grandchildren are the next 16 entries from first_child(c): four lines, fetched while
      // this level's comparisons run, so a deep heap waits for memory once rather than per level.
      const std::size_t g = first_child(c);
      if (end > kPrefetchFrom && g < end) {
        const QueueEntry* lines = heap_.data() + g;
        __builtin_prefetch(lines);
        __builtin_prefetch(lines + 4);
        __builtin_prefetch(lines + 8);
        __builtin_prefetch(lines + 12);
      }
      // A tournament (two pairs, then the winners) keeps the comparisons independent of each other.
      // Indices are computed from the comparison results rather than chosen by `?:`, which the
      // compiler may turn into branches that mispredict about half the time.
      const std::size_t a = c + std::size_t{entry_before(heap_[c + 1], heap_[c], pool)};
      const std::size_t b = c + 2 + std::size_t{entry_before(heap_[c + 3], heap_[c + 2], pool)};
      const std::size_t b_mask =
          std::size_t{0} - std::size_t{entry_before(heap_[b], heap_[a], pool)};
      m = a ^ ((a ^ b) & b_mask);
    } else if (c < end) {
      for (std::size_t i = c + 1; i < end; ++i) {
        if (entry_before(heap_[i], heap_[m], pool)) m = i;
      }
    } else {
      break;
    }
    heap_[hole] = heap_[m];
    hole = m;
  }
  // Bottom-up (Wegener): the hole went down to a leaf without comparing against `entry`, saving a
  // comparison per level; `entry` came from the last leaf, so it rarely has far to climb back.
  sift_up(hole, entry, pool);
}

class QuaternaryHeapQueue final : public EventQueue {
 public:
  void push(const Event& event) override;
  bool pop_before(SimTime limit, Event& out) override;
  [[nodiscard]] SimTime next_time() override;
  [[nodiscard]] std::size_t size() const override { return heap_.size(); }
  [[nodiscard]] std::string_view name() const override { return "quaternary_heap"; }

 private:
  EventPool pool_;
  QuaternaryEntryHeap heap_;
};

}  // namespace rackscale::pdes
