#pragma once
// An HDF5 file written by every rank of a communicator through the MPI-IO driver. The file is also
// its root group: attributes set on it are the root's. Every collective call on it and its objects
// fails on every rank or on none (collective_call.hpp), so a failure on one rank never leaves the
// others waiting. Close it explicitly (collective) to learn whether the data reached the file
// system; destruction closes it too but cannot report a failure.
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/group.hpp"

namespace rackscale::io::hdf5 {

class File final : public Group {
 public:
  // Collective: creates `path`, replacing any file of that name. Metadata operations are collective
  // and metadata is written collectively, which keeps thousands of ranks from each touching it.
  // With `reserve_space`, rank 0 reserves the disk space the file grows to as it grows
  // (file_space.hpp). Throws Error.
  [[nodiscard]] static File create(const boost::mpi::communicator& comm, const std::string& path,
                                   bool reserve_space = true);

  // Collective: writes everything HDF5 holds for the file (its metadata) to the file system. Throws
  // Error.
  void flush();
  // Collective. Every Group and Dataset of the file must have been destroyed. Throws Error.
  void close();
  // Collective, for a file that is being given up after a failure: closes it without writing to the
  // file system again (file_diversion.hpp), so that the close cannot fail or hang on a failing disk.
  // Never throws. The file should be removed afterwards.
  void abandon() noexcept;
  [[nodiscard]] bool is_open() const noexcept { return handle_.valid(); }

 private:
  File(const std::shared_ptr<FileContext>& context, Handle handle)
      : Group(context, std::move(handle), "/", "file"), own_context_(context) {}

  std::shared_ptr<FileContext> own_context_;  // the same as context_, writable: the file's id goes at close
};

}  // namespace rackscale::io::hdf5
