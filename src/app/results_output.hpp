#pragma once
// `rackscale run --output FILE [--force]`, whatever the workload: the file is checked before simulating
// (a run whose results could not be kept should fail in a second, not after an hour) and written by
// every rank when the run has finished, under a temporary name renamed when complete
// (io/hdf5/results_file.hpp).
#include <functional>
#include <stdexcept>
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

// The results file could not be written (a full disk, a quota, a failing device): thrown on every rank
// together, with a message naming the file and the cause, "cannot write the results file out.h5: No
// space left on device (ENOSPC) reserving 1.2 MiB at 64.0 KiB of out.h5.partial-42". Exit code 1.
class ResultsFileError : public std::runtime_error {
 public:
  explicit ResultsFileError(const std::string& message) : std::runtime_error(message) {}
};

// Collective: creates the file, lets `write` fill it, and publishes it under `output.path`; with no
// path it does nothing, so callers need not ask whether a file was requested. A failure on any rank
// becomes a ResultsFileError on every rank and leaves no file behind, partial or not
// (docs/reliability.md, "Parallel output failures").
void write_results_file(const boost::mpi::communicator& comm, const OutputOptions& output,
                        const std::function<void(io::hdf5::File&)>& write);

}  // namespace rackscale::app
