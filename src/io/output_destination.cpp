#include "io/output_destination.hpp"

#include <fcntl.h>  // AT_FDCWD
#include <stdio.h>  // rename, and renameat2 on Linux
#include <unistd.h>  // link, unlink, access

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

namespace rackscale::io {

namespace fs = std::filesystem;

namespace {
std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::string destination_problem(const std::string& path, bool overwrite, bool& exists) {
  if (path.empty()) return "the file name is empty";
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

int rename_file(const std::string& from, const std::string& to, bool overwrite) {
  if (overwrite) return ::rename(from.c_str(), to.c_str());
#if defined(__linux__) && defined(RENAME_NOREPLACE)
  // One atomic step on Linux. File systems that do not offer it (some network ones) say EINVAL, a
  // kernel older than 3.15 ENOSYS: those go the portable way.
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
#endif
  return detail::move_without_replacing(from, to);
}
}  // namespace

namespace detail {
int move_without_replacing(const std::string& from, const std::string& to) {
  // link() refuses an existing name atomically; the file then has both names until the unlink.
  if (::link(from.c_str(), to.c_str()) == 0) return ::unlink(from.c_str());
  if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP && errno != ENOSYS) return -1;
  // A file system without hard links (FAT, some FUSE and network ones): look, then rename. A file
  // that appears in between is replaced, which only these file systems allow.
  std::error_code error;
  if (fs::exists(fs::symlink_status(to, error))) {
    errno = EEXIST;
    return -1;
  }
  return ::rename(from.c_str(), to.c_str());
}
}  // namespace detail

DestinationCheck check_destination(const boost::mpi::communicator& comm, const std::string& path, bool overwrite) {
  DestinationCheck check;
  if (comm.rank() == 0) check.problem = destination_problem(path, overwrite, check.exists);
  boost::mpi::broadcast(comm, check.problem, 0);
  boost::mpi::broadcast(comm, check.exists, 0);
  return check;
}

std::string partial_path(const boost::mpi::communicator& comm, const std::string& path) {
  long long pid = comm.rank() == 0 ? static_cast<long long>(::getpid()) : 0;
  boost::mpi::broadcast(comm, pid, 0);
  return fmt::format("{}.partial-{}", path, pid);
}

std::string publish(const std::string& partial, const std::string& path, bool overwrite) {
  if (rename_file(partial, path, overwrite) == 0) return {};
  return errno == EEXIST ? fmt::format("{}: the file appeared during the run; not replaced", path)
                         : fmt::format("renaming {} to {}: {}", partial, path, std::strerror(errno));
}

}  // namespace rackscale::io
