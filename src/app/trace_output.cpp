#include "app/trace_output.hpp"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "app/chrome_trace_file.hpp"
#include "app/version.hpp"
#include "io/output_destination.hpp"
#include "io/trace/device_selection.hpp"

namespace rackscale::app {

void add_trace_options(CLI::App& run, TraceOptions& options) {
  auto* trace = run.add_option("--trace", options.path,
                               "Write a timeline trace of a training run to this JSON file (Chrome trace format, for "
                               "ui.perfetto.dev; docs/trace.md)");
  run.add_option("--trace-devices", options.devices,
                 "Devices to trace: ids and ranges (0-7,64), all, stage:S, first-of-each-stage")
      ->capture_default_str()
      ->needs(trace);
  run.add_option("--trace-max-spans", options.max_spans, "Refuse a trace that could hold more spans than this")
      ->capture_default_str()
      ->needs(trace);
}

PreparedTrace prepare_trace(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                            const TraceOptions& options, bool overwrite) {
  PreparedTrace prepared;
  if (options.path.empty()) {
    prepared.trace = std::make_unique<NoTrainingTrace>();
    return prepared;
  }
  if (scenario.workload.kind != models::WorkloadKind::training) {
    prepared.problem = fmt::format("--trace {}: timeline traces are recorded for training workloads only", options.path);
    return prepared;
  }
  std::optional<io::DeviceSelection> selection;
  try {
    selection = io::DeviceSelection::parse(options.devices);
  } catch (const std::invalid_argument& e) {
    prepared.problem = e.what();
    return prepared;
  }
  if (const auto check = io::check_destination(comm, options.path, overwrite); !check.problem.empty()) {
    prepared.problem = fmt::format("--trace {}{}", check.problem, check.exists ? " (--force replaces it)" : "");
    return prepared;
  }
  io::TraceHeader header;
  header.scenario = scenario.name;
  header.description = scenario.description;
  header.program = fmt::format("rackscale {} ({})", kVersion, kGitRevision);
  header.devices_per_node = scenario.cluster.devices_per_node;
  prepared.trace =
      std::make_unique<ChromeTraceFile>(options.path, overwrite, std::move(*selection), options.max_spans, std::move(header));
  return prepared;
}

}  // namespace rackscale::app
