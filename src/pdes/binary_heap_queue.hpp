#pragma once
// Baseline queue: a binary min-heap of whole events in one vector (std::push_heap / std::pop_heap).
// Simple and cache-friendly while the heap is small; every pop moves 64-byte records log2(n) times.
#include <vector>

#include "pdes/event_queue.hpp"

namespace rackscale::pdes {

class BinaryHeapQueue final : public EventQueue {
 public:
  void push(const Event& event) override;
  bool pop_before(SimTime limit, Event& out) override;
  [[nodiscard]] SimTime next_time() override;
  [[nodiscard]] std::size_t size() const override { return heap_.size(); }
  [[nodiscard]] std::string_view name() const override { return "binary_heap"; }

 private:
  std::vector<Event> heap_;
};

}  // namespace rackscale::pdes
