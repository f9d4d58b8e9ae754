#pragma once
// `rackscale run` on a trace workload (docs/traces.md): every rank reads the traces of its own devices,
// checks them together with the others' (send/receive pairs), replays them on the event engine and
// reduces what each device found.
#include <stdexcept>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/results_output.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_report.hpp"

namespace rackscale::app {

// A trace that cannot be replayed (exit code 2): malformed or truncated, a cycle, an unknown collective,
// a send without its receive. The message starts with the trace file and names the node.
class TraceReplayRefused : public std::runtime_error {
 public:
  explicit TraceReplayRefused(const std::string& message) : std::runtime_error(message) {}
};

// Collective. Throws TraceReplayRefused (a trace that cannot be replayed: the message names the file and
// node), and what run_failure (app/run_failure.hpp) knows.
[[nodiscard]] models::workload::TraceReport run_trace(const boost::mpi::communicator& comm,
                                                      const models::Scenario& scenario, const RunOptions& options);

// What a trace replay does not offer yet, as the message of an exit-code-2 error ("" when none is asked
// for): a results file (--output) and checkpoints (--checkpoint, --restart).
[[nodiscard]] std::string trace_run_refusal(const RunOptions& options, const OutputOptions& output);

// Runs it and prints the report (and with `json`, one JSON line) on rank 0; returns the exit code.
int run_trace_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
                       bool json);

}  // namespace rackscale::app
