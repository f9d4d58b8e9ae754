#include "io/hdf5/file_space.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "io/errno_text.hpp"
#include "io/hdf5/c_api.hpp"
#include "io/number_format.hpp"

namespace rackscale::io::hdf5 {

namespace {
// HDF5's default metadata and small-data block size (H5Pset_meta_block_size, ..._small_data_...).
constexpr std::uint64_t kAllocationBlock = 2048;
}  // namespace

FileSpace::FileSpace(const std::string& path, bool reserving) : path_(path) {
#if defined(__linux__)
  if (reserving) descriptor_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
#else
  (void)reserving;
#endif
}

FileSpace::~FileSpace() { release(); }

void FileSpace::release() noexcept {
  if (descriptor_ >= 0) ::close(descriptor_);
  descriptor_ = -1;
}

std::string FileSpace::reserve_dataset(Id dataset) {
  if (descriptor_ < 0) return {};
  const haddr_t offset = H5Dget_offset(dataset);
  (void)H5Eclear2(c_api::kErrorStack);
  if (offset == HADDR_UNDEF) return {};  // no storage (an empty dataset)
  return reserve_to(offset + H5Dget_storage_size(dataset));
}

std::string FileSpace::reserve_metadata(Id file) {
  if (descriptor_ < 0) return {};
  std::size_t max_size = 0, min_clean = 0, current = 0;
  int entries = 0;
  if (H5Fget_mdc_size(file, &max_size, &min_clean, &current, &entries) < 0) {
    (void)H5Eclear2(c_api::kErrorStack);
    return {};
  }
  return reserve_to(reserved_ + current + 3 * kAllocationBlock);
}

std::string FileSpace::reserve_to(std::uint64_t end) {
#if defined(__linux__)
  if (descriptor_ < 0 || end <= reserved_) return {};
  const std::uint64_t more = end - reserved_;
  if (::fallocate(descriptor_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(reserved_), static_cast<off_t>(more)) != 0) {
    const int error = errno;
    if (error == EOPNOTSUPP || error == ENOSYS) {
      release();  // this file system cannot reserve: leave it to the writes
      return {};
    }
    return fmt::format("{} reserving {} at {} of {}", errno_text(error), format_bytes(static_cast<double>(more)),
                       format_bytes(static_cast<double>(reserved_)), path_);
  }
  reserved_ = end;
#else
  (void)end;
#endif
  return {};
}

void FileSpace::trim() noexcept {
#if defined(__linux__)
  struct stat status {};
  if (descriptor_ >= 0 && ::fstat(descriptor_, &status) == 0 && static_cast<std::uint64_t>(status.st_size) < reserved_)
    (void)::fallocate(descriptor_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, status.st_size,
                      static_cast<off_t>(reserved_ - static_cast<std::uint64_t>(status.st_size)));
#endif
  release();
}

}  // namespace rackscale::io::hdf5
