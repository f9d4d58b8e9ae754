#pragma once
// A training run's timeline as Chrome Trace Event Format JSON (the "JSON object" form), which
// ui.perfetto.dev and chrome://tracing open. Layout (docs/trace.md):
//   - one process per traced device (pid = device + 1, since viewers reserve pid 0), named
//     "device 12 (node 1, stage 1, tp 0, dp 3)" and sorted by device;
//   - one thread per stream of the device's program that ran something (tid = pid x 10 + stream, unique
//     across processes): "compute" holds the compute ops and, between them, the waits the time
//     breakdown charges (exposed communication, pipeline bubble, idle), so it tiles the run; the other
//     threads hold the communication ops of their stream;
//   - complete events ("ph": "X") with ts and dur in microseconds, written exactly from integer
//     picoseconds (six decimals);
//   - args: iteration, micro-batch, layer, phase, FLOPs and HBM bytes (compute), collective kind,
//     group and bytes (communication), what a wait waited for.
// The content depends only on the spans, never on the order they come in: events are sorted by device,
// thread and time, so the file is the same for any rank count and partition.
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "models/accelerator/span_log.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/time.hpp"

namespace rackscale::io {

struct TraceHeader {
  std::string scenario;
  std::string description;
  std::string program;                         // "rackscale 0.3.0 (abc1234)"
  std::uint32_t devices_per_node = 1;
  std::vector<pdes::SimTime> iteration_ends;   // when the last device finished each iteration
};

// Writes the trace of `devices` (increasing); `spans` are theirs, in any order across devices but in
// recording order within one device (ties keep it).
void write_chrome_trace(std::ostream& out, const TraceHeader& header, const models::workload::TrainingPlan& plan,
                        std::span<const std::uint32_t> devices, std::vector<models::accelerator::RecordedSpan> spans);

// Upper bound of the spans one device records per iteration running `program`: every op, two waits
// before each compute op and at the iteration's end (a wait may be split in two), and the final drain.
[[nodiscard]] std::uint64_t spans_per_iteration(const models::accelerator::Program& program);

}  // namespace rackscale::io
