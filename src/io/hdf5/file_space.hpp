#pragma once
// The disk space of a results file, reserved before anything is written there. Parallel HDF5 gives
// every dataset its place in the file when it is created, and keeps the file's metadata in memory
// until the flush before closing (file.cpp); rank 0 reserves each dataset's bytes when it is created
// and the metadata's before the flush (fallocate, which fails with the precise errno). A full disk or
// an exhausted quota then shows up in a reservation, which every rank hears of before the next
// collective step, and not in one rank's share of a collective write, which MPI-IO (Open MPI's OMPIO)
// reports on that rank alone (docs/reliability.md, "Parallel output failures").
//
// Linux only (fallocate with FALLOC_FL_KEEP_SIZE: the file's size stays HDF5's business). Where the
// file system cannot reserve (EOPNOTSUPP) or elsewhere, nothing is reserved and failures surface from
// the HDF5 calls themselves, still agreed by every rank.
#include <cstdint>
#include <string>

#include "io/hdf5/handle.hpp"

namespace rackscale::io::hdf5 {

class FileSpace {
 public:
  // On the rank that reserves (rank 0), opens `path` for reserving; elsewhere holds nothing.
  FileSpace(const std::string& path, bool reserving);
  ~FileSpace();
  FileSpace(const FileSpace&) = delete;
  FileSpace& operator=(const FileSpace&) = delete;

  // Each returns "" when reserved (or when this rank or file system does not reserve), otherwise why
  // not, naming the file and the cause: "No space left on device (ENOSPC) reserving 1.2 MiB at 64.0
  // KiB of out.h5.partial-42".
  // The file up to the end of `dataset`'s storage (allocated when it was created).
  [[nodiscard]] std::string reserve_dataset(Id dataset);
  // Room after everything reserved so far for the metadata HDF5 holds in memory for `file`: its
  // metadata cache's size, and three allocation blocks of slack (HDF5 allocates metadata and small
  // datasets in blocks of 2 KiB).
  [[nodiscard]] std::string reserve_metadata(Id file);
  // After the file was closed: gives back what was reserved past its end.
  void trim() noexcept;

  // Stops reserving and lets the file go (it is being abandoned).
  void release() noexcept;

  [[nodiscard]] std::uint64_t reserved() const noexcept { return reserved_; }

 private:
  std::string reserve_to(std::uint64_t end);

  std::string path_;
  int descriptor_ = -1;
  std::uint64_t reserved_ = 0;
};

}  // namespace rackscale::io::hdf5
