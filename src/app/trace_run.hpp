#pragma once
// `rackscale run` on a trace workload (docs/traces.md): a Session running a sim::TraceWorkload, whose
// traces are read from Chakra files, and its report on rank 0.
#include <string>

#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/results_output.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_report.hpp"
#include "sim/trace_workload.hpp"

namespace rackscale::app {

using sim::TraceReplayRefused;

// Collective. Throws TraceReplayRefused (a trace that cannot be replayed: the message names the file and
// node), and what run_failure (app/run_failure.hpp) knows. `on_finished` sees the finished run on
// every rank (the results file).
[[nodiscard]] models::workload::TraceReport run_trace(const boost::mpi::communicator& comm,
                                                      const models::Scenario& scenario, const RunOptions& options,
                                                      const sim::TraceObserver& on_finished = nullptr);

// What rank 0 prints after the summary.
struct TraceConsole {
  bool json = false;        // --json: one JSON line, last
  bool statistics = false;  // --statistics: the registry's figures (io/statistics_figures.hpp)
};

// Runs it, writes the results file when `output` names one (docs/output.md), and prints the report on
// rank 0; returns the exit code.
int run_trace_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
                       TraceConsole console, const OutputOptions& output);

}  // namespace rackscale::app
