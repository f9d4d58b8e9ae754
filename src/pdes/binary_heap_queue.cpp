#include "pdes/binary_heap_queue.hpp"

#include <algorithm>

namespace rackscale::pdes {
namespace {
// std heap algorithms build a max-heap; "later" as the comparator puts the earliest event on top.
constexpr auto later = [](const Event& a, const Event& b) { return before(b, a); };
}  // namespace

void BinaryHeapQueue::push(const Event& event) {
  heap_.push_back(event);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

bool BinaryHeapQueue::pop_before(SimTime limit, Event& out) {
  if (heap_.empty() || heap_.front().time >= limit) return false;
  std::pop_heap(heap_.begin(), heap_.end(), later);
  out = heap_.back();
  heap_.pop_back();
  return true;
}

SimTime BinaryHeapQueue::next_time() { return heap_.empty() ? kNever : heap_.front().time; }

}  // namespace rackscale::pdes
