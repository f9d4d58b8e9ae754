#pragma once
// `rackscale run --trace FILE [--trace-devices SPEC] [--trace-max-spans N] [--force]`: a timeline trace of
// a training run (docs/trace.md). The options are checked before simulating: the workload, SPEC's
// syntax and the destination here, SPEC's devices and the number of spans against the job when
// run_training prepares the trace.
#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/training_trace.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// A bound of 2 million spans is some 400 MB of JSON at most (real traces hold about 60 % of the bound),
// what trace viewers still open; it admits first-of-each-stage on the 1,024-GPU GPT-3 example.
inline constexpr std::uint64_t kDefaultTraceMaxSpans = 2'000'000;

struct TraceOptions {
  std::string path;  // empty: no trace
  std::string devices = "first-of-each-stage";
  std::uint64_t max_spans = kDefaultTraceMaxSpans;
};

// Adds the trace options to `run`.
void add_trace_options(CLI::App& run, TraceOptions& options);

struct PreparedTrace {
  std::string problem;  // non-empty: refuse the run (exit code 2) with this message
  std::unique_ptr<TrainingTrace> trace;
};

// Collective, before simulating. Without a path: NoTrainingTrace. `overwrite` is --force.
[[nodiscard]] PreparedTrace prepare_trace(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                          const TraceOptions& options, bool overwrite);

}  // namespace rackscale::app
