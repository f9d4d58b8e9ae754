#pragma once
// The recorder of a traced device: it appends the device's spans to a list that all traced devices of
// one rank share (RecordedSpan is trivially copyable, so the lists of all ranks can be gathered as bytes).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "models/accelerator/span_recorder.hpp"

namespace rackscale::models::accelerator {

struct RecordedSpan {
  pdes::SimTime start = 0;
  pdes::SimTime end = 0;
  std::uint32_t device = 0;
  OpIndex op = kNoOp;           // the op that ran, or (for a wait) the op waited for
  std::uint32_t iteration = 0;
  bool is_wait = false;
  WaitCause cause = WaitCause::idle;  // of a wait
};
static_assert(std::is_trivially_copyable_v<RecordedSpan>);

class SpanLog final : public SpanRecorder {
 public:
  SpanLog(std::uint32_t device, std::vector<RecordedSpan>& spans) : device_(device), spans_(&spans) {}

  void op(OpIndex op, std::uint32_t iteration, pdes::SimTime start, pdes::SimTime end) override {
    spans_->push_back({start, end, device_, op, iteration, false, WaitCause::idle});
  }
  void wait(WaitCause cause, OpIndex blocker, std::uint32_t iteration, pdes::SimTime start, pdes::SimTime end) override {
    spans_->push_back({start, end, device_, blocker, iteration, true, cause});
  }
  [[nodiscard]] std::uint32_t device() const noexcept { return device_; }

 private:
  std::uint32_t device_;
  std::vector<RecordedSpan>* spans_;
};

}  // namespace rackscale::models::accelerator
