#pragma once
// An HDF5 file written by every rank of a communicator through the MPI-IO driver. The file is also
// its root group: attributes set on it are the root's. Close it explicitly (collective) to learn
// whether the data reached the file system; destruction closes it too but cannot report a failure.
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/group.hpp"

namespace rackscale::io::hdf5 {

class File final : public Group {
 public:
  // Collective: creates `path`, replacing any file of that name. Metadata operations are collective
  // and metadata is written collectively, which keeps thousands of ranks from each touching it.
  // Throws Error.
  [[nodiscard]] static File create(const boost::mpi::communicator& comm, const std::string& path);

  // Collective. Every Group and Dataset of the file must have been destroyed. Throws Error.
  void close();
  [[nodiscard]] bool is_open() const noexcept { return handle_.valid(); }

 private:
  File(std::shared_ptr<const FileContext> context, Handle handle) : Group(std::move(context), std::move(handle), "/", "file") {}
};

}  // namespace rackscale::io::hdf5
