#include "app/traffic_output.hpp"

#include <fmt/format.h>

#include "app/version.hpp"
#include "io/traffic_results.hpp"

namespace rackscale::app {

std::string prepare_traffic_output(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                   const OutputOptions& output, RunOptions& run) {
  if (output.path.empty()) return {};
  // Only traffic runs call on_finished; refusing beats silently writing nothing.
  if (scenario.workload.kind != models::WorkloadKind::traffic)
    return fmt::format("--output {}: this writer handles traffic workloads only", output.path);
  if (std::string refused = check_output(comm, output); !refused.empty()) return refused;
  run.on_finished = [comm, scenario, output](const models::traffic::TrafficRunState& state) {
    write_results_file(comm, output, [&](io::hdf5::File& file) {
      io::write_traffic_results(file, scenario, state, {kVersion, kGitRevision});
    });
  };
  return {};
}

}  // namespace rackscale::app
