#pragma once
// `rackscale run --output FILE` for a training run: the observer that writes the results file
// (io/training_results.hpp) from what the finished run left on each rank. Check the file with
// check_output (app/results_output.hpp) before simulating.
#include <boost/mpi/communicator.hpp>

#include "app/results_output.hpp"
#include "app/training_run.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// Writes nothing when `output.path` is empty. A failure while writing becomes a pdes::SimulationError
// thrown by run_training on every rank, with no file left behind.
[[nodiscard]] TrainingObserver training_output(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                               const OutputOptions& output);

}  // namespace rackscale::app
