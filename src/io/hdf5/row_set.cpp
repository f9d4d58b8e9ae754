#include "io/hdf5/row_set.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::io::hdf5 {

RowSet RowSet::all(std::uint64_t rows) {
  RowSet set;
  set.add(0, rows);
  return set;
}

RowSet RowSet::single(std::uint64_t row) {
  RowSet set;
  set.add(row, 1);
  return set;
}

RowSet RowSet::where(std::uint64_t rows, const std::function<bool(std::uint64_t)>& mine) {
  RowSet set;
  for (std::uint64_t r = 0; r < rows; ++r)
    if (mine(r)) set.add(r);
  return set;
}

void RowSet::add(std::uint64_t first, std::uint64_t count) {
  if (count == 0) return;
  const std::uint64_t end_row = end();
  if (!ranges_.empty() && first < end_row)
    throw std::invalid_argument(
        fmt::format("row set: rows must be added in increasing order; got {} after rows up to {}", first, end_row - 1));
  if (!ranges_.empty() && first == end_row)
    ranges_.back().count += count;
  else
    ranges_.push_back({first, count});
  size_ += count;
}

}  // namespace rackscale::io::hdf5
