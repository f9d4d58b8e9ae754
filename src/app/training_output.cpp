#include "app/training_output.hpp"

#include "app/version.hpp"
#include "io/training_results.hpp"

namespace rackscale::app {

TrainingObserver training_output(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                 const OutputOptions& output) {
  return [comm, scenario, output](const models::workload::TrainingRunState& state) {
    write_results_file(comm, output, [&](io::hdf5::File& file) {
      io::write_training_results(file, scenario, state, {kVersion, kGitRevision});
    });
  };
}

}  // namespace rackscale::app
