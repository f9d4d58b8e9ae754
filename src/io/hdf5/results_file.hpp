#pragma once
// How a results file appears: whole or not at all. It is written as "<path>.partial-<pid of rank 0>"
// in the same directory and renamed to `path` by rank 0 once every rank has closed it, so a run that
// fails or is killed never leaves a file under the final name that looks finished (a killed run
// leaves the .partial file, which is safe to delete). An existing file at `path` is replaced only
// when the caller allows it, and only by the complete new file (the rename is atomic).
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/file.hpp"
#include "io/output_destination.hpp"

namespace rackscale::io::hdf5 {

// The checks before simulating live in io/output_destination.hpp (shared with other output files).
using io::DestinationCheck;
using io::check_destination;

class ResultsFile {
 public:
  // Collective: creates the partial file. Throws Error (and leaves no file).
  ResultsFile(const boost::mpi::communicator& comm, std::string path, bool overwrite);
  // Not committed: abandons the partial file (collectively, File::abandon) and removes it.
  ~ResultsFile();
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;

  [[nodiscard]] File& file() noexcept { return file_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] const std::string& partial_path() const noexcept { return partial_; }

  // Collective: flushes and closes the file (every Group and Dataset of it must be gone) and renames it
  // to path(). Without `overwrite` the rename refuses to replace a file that appeared at path() since.
  // Throws Error on every rank if any step fails on any rank; the destructor then removes the partial
  // file.
  void commit();

 private:
  boost::mpi::communicator comm_;
  std::string path_;
  std::string partial_;
  bool overwrite_;
  File file_;
  bool committed_ = false;
};

}  // namespace rackscale::io::hdf5
