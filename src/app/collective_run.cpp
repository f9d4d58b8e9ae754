#include "app/collective_run.hpp"

#include <iostream>

#include "app/exit_codes.hpp"
#include "app/memory_phase.hpp"
#include "app/run_failure.hpp"
#include "app/version.hpp"
#include "io/collective_results.hpp"
#include "io/collective_summary.hpp"
#include "sim/collective_sweep.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

namespace coll = models::collectives;

coll::CollectiveReport run_collective(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                      const RunOptions& options) {
  MemoryPhase phase("building the topology");
  sim::Session session(comm, scenario, options, phase.marker());
  return sim::run_collective_sweep(session);
}

int run_collective_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                            const RunOptions& options, bool json, const OutputOptions& output) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale run: " << message << '\n';
    return code;
  };
  if (const std::string refused = check_output(comm, output); !refused.empty()) return fail(kExitBadInput, refused);
  coll::CollectiveReport report;
  try {
    report = run_collective(comm, scenario, options);
    write_results_file(comm, output, [&](io::hdf5::File& file) {
      io::write_collective_results(file, scenario, report, {kVersion, kGitRevision});
    });
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << io::collective_summary(scenario, report);
  if (json) std::cout << io::collective_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
