#pragma once
// `rackscale run --output FILE [--force]`: the HDF5 results file of a traffic run. The file is checked
// before simulating (a run whose results could not be kept should fail in a second, not after an
// hour) and written by every rank when the run finishes (io/traffic_results.hpp), under a temporary
// name renamed when complete (io/hdf5/results_file.hpp).
#include <string>

#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/results_output.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// Collective, before simulating. With no path it does nothing. Otherwise it checks that `output.path`
// can be written (an existing file only with `force`; a missing directory is created) and sets
// `run.on_finished` to write the file when the run ends. Returns "" on success, or a message naming
// the file for the exit-code-2 error (also for workloads other than traffic, which have writers of
// their own).
// A failure while writing becomes a pdes::SimulationError thrown by run_traffic on every rank, with no
// file left behind.
[[nodiscard]] std::string prepare_traffic_output(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                                 const OutputOptions& output, RunOptions& run);

}  // namespace rackscale::app
