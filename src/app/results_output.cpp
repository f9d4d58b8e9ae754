#include "app/results_output.hpp"

#include <fmt/format.h>

#include "io/hdf5/error.hpp"
#include "io/hdf5/results_file.hpp"

namespace rackscale::app {

std::string check_output(const boost::mpi::communicator& comm, const OutputOptions& output) {
  if (output.path.empty()) return {};
  if (const auto check = io::hdf5::check_destination(comm, output.path, output.force); !check.problem.empty())
    return fmt::format("--output {}{}", check.problem, check.exists ? " (--force replaces it)" : "");
  return {};
}

void write_results_file(const boost::mpi::communicator& comm, const OutputOptions& output,
                        const std::function<void(io::hdf5::File&)>& write) {
  if (output.path.empty()) return;
  try {
    io::hdf5::ResultsFile results(comm, output.path, output.force);
    write(results.file());
    results.commit();
  } catch (const io::hdf5::Error& e) {
    // Every rank gets here together: the wrapper agrees on each collective call's outcome.
    throw ResultsFileError(fmt::format("cannot write the results file {}: {}", output.path, e.what()));
  }
}

}  // namespace rackscale::app
