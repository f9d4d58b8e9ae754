#pragma once
// A group of a results file, and the file's root. Creating groups and datasets is collective: every
// rank calls with the same arguments, in the same order.
#include <cstdint>
#include <string_view>

#include "io/hdf5/dataset.hpp"
#include "io/hdf5/object.hpp"

namespace rackscale::io::hdf5 {

class Group : public Object {
 public:
  [[nodiscard]] Group create_group(std::string_view name);
  // A dataset of `rows` (1-D) or `rows` x `columns` (2-D, columns > 0) elements of T, stored
  // contiguously and allocated at creation (parallel HDF5 requires it), with no fill value written:
  // every row must be written by some rank.
  template <StorableScalar T>
  [[nodiscard]] Dataset create_dataset(std::string_view name, std::uint64_t rows, std::uint64_t columns = 0) {
    return create(name, rows, columns, static_cast<int>(ScalarOf<T>::value), 0);
  }
  // `rows` fixed-length strings of `width` bytes (UTF-8; shorter strings are NUL-terminated).
  [[nodiscard]] Dataset create_string_dataset(std::string_view name, std::uint64_t rows, std::size_t width);

 protected:
  Group(std::shared_ptr<const FileContext> context, Handle handle, std::string path, std::string_view kind)
      : Object(std::move(context), std::move(handle), std::move(path), kind) {}

 private:
  Dataset create(std::string_view name, std::uint64_t rows, std::uint64_t columns, int element, std::size_t width);
};

}  // namespace rackscale::io::hdf5
