#pragma once
// Ownership of one HDF5 identifier (file, group, dataset, dataspace, datatype, property list or
// attribute): closed by the matching H5?close when the Handle goes. Kept free of <hdf5.h> so that
// users of the wrapper do not see the C API; c_api.hpp checks the types agree.
#include <cstdint>
#include <utility>

namespace rackscale::io::hdf5 {

using Id = std::int64_t;            // hid_t
using Status = int;                 // herr_t
using Closer = Status (*)(Id);

class Handle {
 public:
  Handle() = default;
  Handle(Id id, Closer closer) noexcept : id_(id), close_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
      close_ = other.close_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  [[nodiscard]] Id get() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }
  // Closes now and returns the closer's status (negative: failed); the handle is empty afterwards.
  Status close() noexcept {
    const Status status = id_ >= 0 && close_ ? close_(id_) : 0;
    id_ = -1;
    return status;
  }

 private:
  // Destruction cannot report a failure; close() is there for callers who must know (the file).
  void reset() noexcept { (void)close(); }

  Id id_ = -1;
  Closer close_ = nullptr;
};

}  // namespace rackscale::io::hdf5
