#include "app/traffic_output.hpp"

#include <fmt/format.h>

#include "app/version.hpp"
#include "io/hdf5/error.hpp"
#include "io/hdf5/results_file.hpp"
#include "io/traffic_results.hpp"
#include "pdes/error.hpp"

namespace rackscale::app {

std::string prepare_traffic_output(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                   const OutputOptions& output, RunOptions& run) {
  if (output.path.empty()) return {};
  // Only traffic runs call on_finished so far; refusing beats silently writing nothing.
  if (scenario.workload.kind != models::WorkloadKind::traffic)
    return fmt::format("--output {}: results files are written for traffic workloads only so far", output.path);
  if (const auto check = io::hdf5::check_destination(comm, output.path, output.force); !check.problem.empty())
    return fmt::format("--output {}{}", check.problem, check.exists ? " (--force replaces it)" : "");
  run.on_finished = [comm, scenario, output](const models::traffic::TrafficRunState& state) {
    try {
      io::hdf5::ResultsFile results(comm, output.path, output.force);
      io::write_traffic_results(results.file(), scenario, state, {kVersion, kGitRevision});
      results.commit();
    } catch (const io::hdf5::Error& e) {
      // HDF5 fails collectively (file creation, MPI-IO writes), so every rank gets here together.
      throw pdes::SimulationError(comm.rank(), fmt::format("cannot write the results file {}: {}", output.path, e.what()));
    }
  };
  return {};
}

}  // namespace rackscale::app
