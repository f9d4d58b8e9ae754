#include "io/hdf5/results_file.hpp"

#include <unistd.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/hdf5/error.hpp"

namespace rackscale::io::hdf5 {

namespace {
// Collective: creates the file, and if that fails on any rank, removes what the others created.
File create_partial(const boost::mpi::communicator& comm, const std::string& partial) {
  try {
    return File::create(comm, partial);
  } catch (const Error&) {
    if (comm.rank() == 0) ::unlink(partial.c_str());
    throw;
  }
}
}  // namespace

ResultsFile::ResultsFile(const boost::mpi::communicator& comm, std::string path, bool overwrite)
    : comm_(comm),
      path_(std::move(path)),
      partial_(io::partial_path(comm, path_)),
      overwrite_(overwrite),
      file_(create_partial(comm, partial_)) {}

ResultsFile::~ResultsFile() {
  if (committed_) return;
  // The file is being given up, after a failure every rank agreed on (or an exception that left the
  // caller's scope on every rank): close it without writing to the disk again, then remove it.
  file_.abandon();
  try {
    comm_.barrier();  // nobody still has it open
  } catch (const std::exception&) {
  }
  if (comm_.rank() == 0) ::unlink(partial_.c_str());
}

void ResultsFile::commit() {
  // Metadata first, on its own: a failure there (agreed by every rank) still leaves the file open to
  // be abandoned cleanly, where a failure inside the close would leave HDF5 half-closed.
  file_.flush();
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
