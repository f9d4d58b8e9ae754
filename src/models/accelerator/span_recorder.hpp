#pragma once
// What a device did and when, span by span, for timeline traces (io/trace). The executor reports every
// op it ran and every stretch of time its compute units stood idle, with the reason the time breakdown
// charges it to. Untraced devices get the do-nothing recorder (ignored_spans()), so tracing costs them
// one empty virtual call per op and no branch.
#include <cstdint>

#include "models/vocabulary/program.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::accelerator {

// Why the compute units stood idle: the TimeBreakdown component the wait is charged to.
enum class WaitCause : std::uint8_t { exposed_communication, pipeline_bubble, idle };

// No op: a wait whose cause has no op to name (the start of an iteration, what a collective itself waited for).
inline constexpr OpIndex kNoOp = 0xFFFFFFFFu;

class SpanRecorder {
 public:
  virtual ~SpanRecorder() = default;
  SpanRecorder() = default;
  SpanRecorder(const SpanRecorder&) = delete;
  SpanRecorder& operator=(const SpanRecorder&) = delete;

  // Op `op` of the device's program ran in `iteration` (0-based) from `start` to `end`.
  virtual void op(OpIndex op, std::uint32_t iteration, pdes::SimTime start, pdes::SimTime end) = 0;
  // The compute units were idle from `start` to `end` (start < end) because of `cause`, waiting for op
  // `blocker` (kNoOp: none that can be named).
  virtual void wait(WaitCause cause, OpIndex blocker, std::uint32_t iteration, pdes::SimTime start, pdes::SimTime end) = 0;
};

class IgnoredSpans final : public SpanRecorder {
 public:
  void op(OpIndex, std::uint32_t, pdes::SimTime, pdes::SimTime) override {}
  void wait(WaitCause, OpIndex, std::uint32_t, pdes::SimTime, pdes::SimTime) override {}
};

// One recorder that drops everything, shared by every untraced device (it has no state).
[[nodiscard]] inline SpanRecorder& ignored_spans() {
  static IgnoredSpans ignored;
  return ignored;
}

}  // namespace rackscale::models::accelerator
