#include "pdes/quaternary_heap_queue.hpp"

namespace rackscale::pdes {

void QuaternaryHeapQueue::push(const Event& event) {
  heap_.push(make_entry(event, pool_.acquire(event)), pool_);
}

bool QuaternaryHeapQueue::pop_before(SimTime limit, Event& out) {
  if (heap_.empty() || heap_.top().time >= limit) return false;
  const EventSlot slot = heap_.pop(pool_).slot;
  out = pool_[slot];
  pool_.release(slot);
  if (!heap_.empty()) pool_.prefetch(heap_.top().slot);
  return true;
}

SimTime QuaternaryHeapQueue::next_time() { return heap_.empty() ? kNever : heap_.top().time; }

}  // namespace rackscale::pdes
