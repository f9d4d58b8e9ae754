#pragma once
// A 1-D or 2-D dataset of numbers, or a 1-D dataset of fixed-length strings, created collectively by
// Group::create_dataset. Each rank writes its own rows: possibly several disjoint ranges (a RowSet),
// in one collective MPI-IO transfer per call; a rank with no rows still calls, with an empty set.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "io/hdf5/object.hpp"
#include "io/hdf5/row_set.hpp"

namespace rackscale::io::hdf5 {

class Dataset final : public Object {
 public:
  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }
  [[nodiscard]] std::uint64_t columns() const noexcept { return columns_; }  // 0: a 1-D dataset

  // Collective. `values` holds this rank's rows in increasing row order, row-major: rows.size()
  // values (1-D) or rows.size() x columns() (2-D). Throws std::invalid_argument if the count, the rows
  // or the element type do not fit the dataset (before any collective call, so a caller's bug on one
  // rank shows there), Error if HDF5 fails.
  template <StorableScalar T>
  void write_rows(const RowSet& rows, std::span<const T> values) {
    check_write(rows, values.size(), static_cast<int>(ScalarOf<T>::value));
    write(rows, values.data());
  }
  // Collective, for string datasets: one string per row, each at most the dataset's width in bytes.
  void write_strings(const RowSet& rows, std::span<const std::string> values);

 private:
  friend class Group;
  static constexpr int kStrings = -1;  // element_ for string datasets
  Dataset(std::shared_ptr<const FileContext> context, Handle handle, std::string path, std::uint64_t rows,
          std::uint64_t columns, int element, std::size_t string_width);

  void check_write(const RowSet& rows, std::size_t values, int element) const;
  void write(const RowSet& rows, const void* data);

  std::uint64_t rows_;
  std::uint64_t columns_;
  int element_;                // static_cast<int>(Scalar) or kStrings
  std::size_t string_width_;   // bytes per string (string datasets)
};

}  // namespace rackscale::io::hdf5
