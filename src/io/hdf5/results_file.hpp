#pragma once
// How a results file appears: whole or not at all. It is written as "<path>.partial-<pid of rank 0>"
// in the same directory and renamed to `path` by rank 0 once every rank has closed it, so a run that
// fails or is killed never leaves a file under the final name that looks finished (a killed run
// leaves the .partial file, which is safe to delete). An existing file at `path` is replaced only
// when the caller allows it, and only by the complete new file (the rename is atomic).
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/file.hpp"

namespace rackscale::io::hdf5 {

struct DestinationCheck {
  bool exists = false;  // the refusal is because a file is there (and overwriting was not allowed)
  std::string problem;  // empty: the file may be written; otherwise why not, naming the file
};

// Collective, and cheap: meant to run before a long simulation, so that a run whose results could not
// be kept fails before it starts. Rank 0 looks and every rank gets its answer: `path` may be written
// if its directory exists (or was just created) and is writable, and no file is there or `overwrite`.
// Refusals read "results/a.h5: the file exists".
[[nodiscard]] DestinationCheck check_destination(const boost::mpi::communicator& comm, const std::string& path,
                                                 bool overwrite);

class ResultsFile {
 public:
  // Collective: creates the partial file. Throws Error.
  ResultsFile(const boost::mpi::communicator& comm, std::string path, bool overwrite);
  // Not committed: closes the partial file (collectively) and removes it.
  ~ResultsFile();
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;

  [[nodiscard]] File& file() noexcept { return file_; }
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] const std::string& partial_path() const noexcept { return partial_; }

  // Collective: closes the file (every Group and Dataset of it must be gone) and renames it to path().
  // Without `overwrite` the rename refuses to replace a file that appeared at path() since. Throws
  // Error on every rank if any step fails, and then removes the partial file.
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
