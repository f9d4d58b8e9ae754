#include "io/hdf5/results_file.hpp"

#include <unistd.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/hdf5/error.hpp"

namespace rackscale::io::hdf5 {

ResultsFile::ResultsFile(const boost::mpi::communicator& comm, std::string path, bool overwrite)
    : comm_(comm),
      path_(std::move(path)),
      partial_(io::partial_path(comm, path_)),
      overwrite_(overwrite),
      file_(File::create(comm, partial_)) {}

ResultsFile::~ResultsFile() {
  if (committed_) return;
  // The file is being abandoned: a failure to close it matters less than removing it.
  try {
    file_.close();
  } catch (const Error&) {
  }
  try {
    comm_.barrier();  // nobody still writes to it
  } catch (const std::exception&) {
  }
  if (comm_.rank() == 0) ::unlink(partial_.c_str());
}

void ResultsFile::commit() {
  file_.close();
  // H5Fclose is collective, but only after everyone has returned from it is the file complete on disk
  // for every rank.
  comm_.barrier();
  std::string problem;
  if (comm_.rank() == 0) problem = publish(partial_, path_, overwrite_);
  boost::mpi::broadcast(comm_, problem, 0);
  if (!problem.empty()) throw Error(problem);  // the destructor removes the partial file
  committed_ = true;
}

}  // namespace rackscale::io::hdf5
