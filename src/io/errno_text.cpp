#include "io/errno_text.hpp"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace rackscale::io {

namespace {
// The errors a file can fail with. strerrorname_np would name them all, but only glibc 2.32 and later
// has it.
const char* errno_name(int error) {
  switch (error) {
    case ENOSPC: return "ENOSPC";
    case EDQUOT: return "EDQUOT";
    case EIO: return "EIO";
    case EFBIG: return "EFBIG";
    case EROFS: return "EROFS";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case EEXIST: return "EEXIST";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ESTALE: return "ESTALE";
    case ENOMEM: return "ENOMEM";
    case EINVAL: return "EINVAL";
    case EBADF: return "EBADF";
    case EINTR: return "EINTR";
    case EXDEV: return "EXDEV";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    default: return nullptr;
  }
}
}  // namespace

std::string errno_text(int error) {
  const char* name = errno_name(error);
  return name ? fmt::format("{} ({})", std::strerror(error), name)
              : fmt::format("{} (errno {})", std::strerror(error), error);
}

}  // namespace rackscale::io
