#pragma once
// `rackscale run --output FILE [--force]`, whatever the workload: the file is checked before simulating
// (a run whose results could not be kept should fail in a second, not after an hour) and written by
// every rank when the run has finished, under a temporary name renamed when complete
// (io/hdf5/results_file.hpp).
#include <functional>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/file.hpp"

namespace rackscale::app {

struct OutputOptions {
  std::string path;    // empty: no results file
  bool force = false;  // replace an existing file
};

// Collective, before simulating. "" when `output.path` may be written (an existing file only with
// `force`; a missing directory is created) or is empty; otherwise the message of the exit-code-2
// error, naming the file: "--output out.h5: the file exists (--force replaces it)".
[[nodiscard]] std::string check_output(const boost::mpi::communicator& comm, const OutputOptions& output);

// Collective: creates the file, lets `write` fill it, and publishes it under `output.path`; with no
// path it does nothing, so callers need not ask whether a file was requested. A failure
// becomes a pdes::SimulationError on every rank ("cannot write the results file ...") and leaves no
// file behind.
void write_results_file(const boost::mpi::communicator& comm, const OutputOptions& output,
                        const std::function<void(io::hdf5::File&)>& write);

}  // namespace rackscale::app
