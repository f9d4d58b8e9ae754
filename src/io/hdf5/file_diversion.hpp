#pragma once
// Letting go of a file that is being abandoned without writing to it again. After a write failed (a
// full disk, a quota, a failing device), HDF5 still writes its cached metadata when the file is
// closed; on a disk that keeps failing, that close fails on some ranks only, which leaves parallel
// HDF5 waiting on the others, or with a half-closed file that it closes again, and crashes on, at
// MPI_Finalize. Before closing an abandoned file, each rank points every descriptor it holds on the
// file at an anonymous in-memory file instead (dup2 of a memfd), so that the close writes to memory,
// succeeds on every rank, and the file on disk is only removed.
//
// Linux only (/proc/self/fd and memfd_create); elsewhere it does nothing and the close goes to the
// file as before.
#include <string>

namespace rackscale::io::hdf5 {

// The number of this process's descriptors on `path` that now point at memory (0 where unsupported).
int divert_descriptors(const std::string& path) noexcept;

}  // namespace rackscale::io::hdf5
