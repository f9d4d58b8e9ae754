#pragma once
// The timeline trace of a training run written as a Chrome Trace Event Format JSON file
// (io/trace/chrome_trace.hpp, docs/trace.md). The traced devices record their spans on the rank that
// simulates them; at the end the spans are gathered on rank 0, which writes the file under a
// temporary name and renames it when complete (io/output_destination.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/training_trace.hpp"
#include "io/trace/chrome_trace.hpp"
#include "io/trace/device_selection.hpp"
#include "models/accelerator/span_log.hpp"

namespace rackscale::app {

class ChromeTraceFile final : public TrainingTrace {
 public:
  // `header` without iteration ends (finish adds them); `max_spans`: refuse a request that could
  // record more (prepare).
  ChromeTraceFile(std::string path, bool overwrite, io::DeviceSelection selection, std::uint64_t max_spans,
                  io::TraceHeader header);

  void prepare(const models::workload::TrainingPlan& plan) override;
  models::accelerator::SpanRecorder& recorder(std::uint32_t device) override;
  void finish(const boost::mpi::communicator& comm, const models::workload::TrainingPlan& plan,
              std::span<const pdes::SimTime> iteration_ends) override;

  [[nodiscard]] const std::vector<std::uint32_t>& devices() const noexcept { return devices_; }

 private:
  std::string path_;
  bool overwrite_;
  io::DeviceSelection selection_;
  std::uint64_t max_spans_;
  io::TraceHeader header_;
  std::vector<std::uint32_t> devices_;                               // traced, increasing
  std::vector<std::unique_ptr<models::accelerator::SpanLog>> logs_;  // logs_[k] records devices_[k]
  std::vector<models::accelerator::RecordedSpan> spans_;             // this rank's devices' spans
};

}  // namespace rackscale::app
