#include "app/trace_run.hpp"

#include <iostream>

#include "app/exit_codes.hpp"
#include "app/memory_phase.hpp"
#include "app/run_failure.hpp"
#include "app/version.hpp"
#include "io/chakra/chakra_file.hpp"
#include "io/config/config_error.hpp"
#include "io/statistics_figures.hpp"
#include "io/trace_replay_summary.hpp"
#include "io/trace_results.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

namespace wl = models::workload;

namespace {
// A file that cannot be read is a trace that cannot be replayed; the message names the file.
wl::TraceGraph read_trace(const std::string& file) {
  try {
    return io::read_chakra_trace(file);
  } catch (const io::ConfigError& e) {
    throw TraceReplayRefused(e.what());
  }
}
}  // namespace

wl::TraceReport run_trace(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                          const RunOptions& options, const sim::TraceObserver& on_finished) {
  MemoryPhase phase("building the topology");
  sim::Session session(comm, scenario, options, phase.marker());
  sim::TraceWorkload workload(session, read_trace, on_finished);
  (void)session.run(workload);
  return workload.report();
}

int run_trace_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
                       TraceConsole console, const OutputOptions& output) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale run: " << message << '\n';
    return code;
  };
  if (const std::string refused = check_output(comm, output); !refused.empty()) return fail(kExitBadInput, refused);
  wl::TraceReport report;
  try {
    report = run_trace(comm, scenario, options, [&](const sim::FinishedRun& run, const wl::TraceReport& finished) {
      write_results_file(comm, output, [&](io::hdf5::File& file) {
        io::write_trace_results(file, scenario, run, finished, {kVersion, kGitRevision});
      });
    });
  } catch (const TraceReplayRefused& e) {
    return fail(kExitBadInput, e.what());
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << io::trace_replay_summary(scenario, report);
  if (console.statistics) std::cout << io::statistics_text(report.statistics);
  if (console.json) std::cout << io::trace_replay_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
