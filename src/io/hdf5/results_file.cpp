#include "io/hdf5/results_file.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/hdf5/error.hpp"

namespace rackscale::io::hdf5 {

namespace fs = std::filesystem;

namespace {
std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::string destination_problem(const std::string& path, bool overwrite, bool& exists) {
  if (path.empty()) return "the results file name is empty";
  std::error_code error;
  const fs::file_status status = fs::symlink_status(path, error);
  if (fs::exists(status)) {
    exists = !overwrite;
    if (!overwrite) return fmt::format("{}: the file exists", path);
    if (fs::is_directory(status)) return fmt::format("{}: is a directory", path);
  }
  const std::string directory = directory_of(path);
  if (!fs::is_directory(directory, error)) {
    fs::create_directories(directory, error);
    if (error) return fmt::format("{}: cannot create the directory {}: {}", path, directory, error.message());
  }
  if (::access(directory.c_str(), W_OK) != 0)
    return fmt::format("{}: cannot write in the directory {}: {}", path, directory, std::strerror(errno));
  return {};
}

// Moves `from` to `to` atomically; without `overwrite`, fails with EEXIST rather than replace a file.
// File systems without RENAME_NOREPLACE (some network ones) fall back to a check and a rename.
int publish(const std::string& from, const std::string& to, bool overwrite) {
  if (overwrite) return ::rename(from.c_str(), to.c_str());
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  std::error_code error;
  if (fs::exists(fs::symlink_status(to, error))) {
    errno = EEXIST;
    return -1;
  }
  return ::rename(from.c_str(), to.c_str());
}
}  // namespace

DestinationCheck check_destination(const boost::mpi::communicator& comm, const std::string& path, bool overwrite) {
  DestinationCheck check;
  if (comm.rank() == 0) check.problem = destination_problem(path, overwrite, check.exists);
  boost::mpi::broadcast(comm, check.problem, 0);
  boost::mpi::broadcast(comm, check.exists, 0);
  return check;
}

namespace {
std::string partial_name(const boost::mpi::communicator& comm, const std::string& path) {
  long long pid = comm.rank() == 0 ? static_cast<long long>(::getpid()) : 0;
  boost::mpi::broadcast(comm, pid, 0);
  return fmt::format("{}.partial-{}", path, pid);
}
}  // namespace

ResultsFile::ResultsFile(const boost::mpi::communicator& comm, std::string path, bool overwrite)
    : comm_(comm),
      path_(std::move(path)),
      partial_(partial_name(comm, path_)),
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
  if (comm_.rank() == 0 && publish(partial_, path_, overwrite_) != 0) {
    problem = errno == EEXIST ? fmt::format("{}: the file appeared during the run; not replaced", path_)
                              : fmt::format("renaming {} to {}: {}", partial_, path_, std::strerror(errno));
  }
  boost::mpi::broadcast(comm_, problem, 0);
  if (!problem.empty()) throw Error(problem);  // the destructor removes the partial file
  committed_ = true;
}

}  // namespace rackscale::io::hdf5
