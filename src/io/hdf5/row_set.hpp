#pragma once
// The rows of a dataset one rank writes: disjoint ranges in increasing order. A rank writes the rows
// of what it owns (the devices and ports of its racks), which with rack placement is a union of
// ranges rather than one block; a rank that owns nothing has an empty set and still takes part in
// the collective write.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace rackscale::io::hdf5 {

struct RowRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

class RowSet {
 public:
  RowSet() = default;

  // Rows [0, rows).
  [[nodiscard]] static RowSet all(std::uint64_t rows);
  // The single row `row` (a per-rank table's row for this rank, say).
  [[nodiscard]] static RowSet single(std::uint64_t row);
  // The rows r in [0, rows) for which mine(r) holds, merged into ranges. O(rows).
  [[nodiscard]] static RowSet where(std::uint64_t rows, const std::function<bool(std::uint64_t)>& mine);

  // Appends rows [first, first + count); throws std::invalid_argument unless first is past every row
  // already in the set. Adjacent ranges merge.
  void add(std::uint64_t first, std::uint64_t count = 1);

  [[nodiscard]] std::span<const RowRange> ranges() const noexcept { return ranges_; }
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }  // rows in the set
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  // One past the last row (0 when empty): the dataset must have at least this many rows.
  [[nodiscard]] std::uint64_t end() const noexcept {
    return ranges_.empty() ? 0 : ranges_.back().first + ranges_.back().count;
  }

 private:
  std::vector<RowRange> ranges_;
  std::uint64_t size_ = 0;
};

}  // namespace rackscale::io::hdf5
