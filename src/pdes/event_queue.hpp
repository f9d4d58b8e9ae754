#pragma once
// The pending-event set of one rank. An interface with small implementations chosen by name, so a
// run (or a benchmark) can compare them without rebuilding.
//
// Contract for every implementation: pop_before() returns events in the order of pdes::before()
// (time, source LP, sequence), whatever order they were pushed in, including pushes earlier than
// events already popped.
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pdes/event.hpp"

namespace rackscale::pdes {

class EventQueue {
 public:
  virtual ~EventQueue() = default;
  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  virtual void push(const Event& event) = 0;

  // If the first event is earlier than `limit`, moves it to `out` and returns true.
  // One call per event keeps the engine's hot loop at a single virtual call.
  virtual bool pop_before(SimTime limit, Event& out) = 0;

  // Time of the first event, or kNever when empty.
  [[nodiscard]] virtual SimTime next_time() = 0;

  [[nodiscard]] virtual std::size_t size() const = 0;
  [[nodiscard]] bool empty() const { return size() == 0; }

  [[nodiscard]] virtual std::string_view name() const = 0;

  // Does now some of the work that pops of events at or before `until` would do later (the ladder
  // sorts its next bucket); a rank calls it while it waits for the others at a window's end, so that
  // work leaves the next window. Returns false when there is nothing more of it to do. Never needed
  // for correctness.
  virtual bool prepare(SimTime /*until*/) { return false; }

  // The destinations of the events the next two pops will probably return (kNoLp where unknown): a
  // hint, set by pop_before() where it costs nothing extra, with which the engine starts loading those
  // LPs while it handles the event just popped (with tens of thousands of LPs each is a cache miss).
  // Never needed for correctness: a push may change which events come next.
  using Upcoming = std::array<LpId, 2>;
  [[nodiscard]] const Upcoming& upcoming_destinations() const noexcept { return upcoming_; }

 protected:
  Upcoming upcoming_{kNoLp, kNoLp};
};

// Names accepted by make_event_queue(), the default first.
[[nodiscard]] const std::vector<std::string>& event_queue_names();

// The queue used when none is named; chosen by the hold benchmark (docs/performance.md).
[[nodiscard]] std::string_view default_event_queue();

// Throws std::invalid_argument naming the valid choices when `name` is unknown.
[[nodiscard]] std::unique_ptr<EventQueue> make_event_queue(std::string_view name);

}  // namespace rackscale::pdes
