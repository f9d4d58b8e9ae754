#include "io/hdf5/dataset.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "io/hdf5/c_api.hpp"
#include "io/hdf5/collective_call.hpp"

namespace rackscale::io::hdf5 {

Dataset::Dataset(std::shared_ptr<const FileContext> context, Handle handle, std::string path, std::uint64_t rows,
                 std::uint64_t columns, int element, std::size_t string_width)
    : Object(std::move(context), std::move(handle), std::move(path), "dataset"),
      rows_(rows),
      columns_(columns),
      element_(element),
      string_width_(string_width) {}

void Dataset::check_write(const RowSet& rows, std::size_t values, int element) const {
  if (element != element_)
    throw std::invalid_argument(fmt::format("{}: written with a different element type than it was created with",
                                            where()));
  if (rows.end() > rows_)
    throw std::invalid_argument(fmt::format("{}: row {} is past its {} rows", where(), rows.end() - 1, rows_));
  const std::uint64_t expected = rows.size() * std::max<std::uint64_t>(columns_, 1);
  if (values != expected)
    throw std::invalid_argument(fmt::format("{}: {} values for {} rows; expected {}", where(), values, rows.size(), expected));
}

void Dataset::write_strings(const RowSet& rows, std::span<const std::string> values) {
  check_write(rows, values.size(), kStrings);
  std::vector<char> packed(std::max<std::size_t>(values.size() * string_width_, 1), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].size() > string_width_)
      throw std::invalid_argument(fmt::format("{}: the string '{}' is longer than the dataset's {} bytes", where(),
                                              values[i], string_width_));
    std::memcpy(packed.data() + i * string_width_, values[i].data(), values[i].size());
  }
  write(rows, packed.data());
}

void Dataset::write(const RowSet& rows, const void* data) {
  c_api::quiet_errors();
  // An empty dataset has no storage to write to (HDF5 fails on it); every rank knows it is empty.
  if (rows_ == 0) return;
  const std::string place = where();
  const bool two_d = columns_ > 0;
  const Handle file_space(c_api::check_id(H5Dget_space(id()), "H5Dget_space", place), H5Sclose);
  // The file selection is the union of this rank's row ranges (all columns); the memory side is the
  // packed values in the same order, since HDF5 pairs the elements of the two selections in
  // increasing order.
  c_api::check(H5Sselect_none(file_space.get()), "H5Sselect_none", place);
  for (const RowRange& range : rows.ranges()) {
    const hsize_t start[2] = {range.first, 0};
    const hsize_t count[2] = {range.count, two_d ? columns_ : 1};
    c_api::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_OR, start, nullptr, count, nullptr),
                 "H5Sselect_hyperslab", place);
  }
  const hsize_t elements = rows.size() * (two_d ? columns_ : 1);
  // An empty selection still needs a dataspace with at least one element to select none of.
  const hsize_t memory_dims[1] = {std::max<hsize_t>(elements, 1)};
  const Handle memory_space(c_api::check_id(H5Screate_simple(1, memory_dims, nullptr), "H5Screate_simple", place),
                            H5Sclose);
  if (elements == 0) c_api::check(H5Sselect_none(memory_space.get()), "H5Sselect_none", place);

  Handle string_type;
  hid_t memory_type = -1;
  if (element_ == kStrings) {
    string_type = c_api::string_type(string_width_, place);
    memory_type = string_type.get();
  } else {
    memory_type = c_api::memory_type(static_cast<Scalar>(element_));
  }
  const char dummy[8] = {};
  (void)collective(*context_, "H5Dwrite", place, [&] {
    return H5Dwrite(id(), memory_type, memory_space.get(), file_space.get(), context_->transfer.get(),
                    elements == 0 || data == nullptr ? static_cast<const void*>(dummy) : data);
  });
}

}  // namespace rackscale::io::hdf5
