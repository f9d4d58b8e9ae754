#pragma once
// The rows of a results table (devices, nodes, ports, racks) as the ranks own them: rank r writes the
// rows of the racks placed on it, so the file is written without gathering anything on one rank.
// Figures that several ranks add to (the analytical fabric counts a message on every port of its
// path, at the sender) are first reduced onto the rows' owners.
#include <cstdint>
#include <span>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/row_set.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::io {

class OwnedRows {
 public:
  // owner[row] is the rank that owns the row, the same on every rank; `rank` is this rank.
  // Throws std::invalid_argument if an owner is outside [0, ranks).
  OwnedRows(std::vector<std::int32_t> owner, int ranks, int rank);

  [[nodiscard]] std::uint64_t rows() const noexcept { return owner_.size(); }
  [[nodiscard]] const hdf5::RowSet& mine() const noexcept { return mine_; }

  // This rank's entries of a full table indexed by row, in row order.
  template <class T>
  [[nodiscard]] std::vector<T> pick(std::span<const T> table) const {
    std::vector<T> out;
    out.reserve(mine_.size());
    for (const auto& range : mine_.ranges())
      out.insert(out.end(), table.begin() + static_cast<std::ptrdiff_t>(range.first),
                 table.begin() + static_cast<std::ptrdiff_t>(range.first + range.count));
    return out;
  }
  // This rank's rows of a table computed row by row: value(row) for each row it owns, in row order.
  template <class F>
  [[nodiscard]] auto make(F value) const -> std::vector<decltype(value(std::uint64_t{}))> {
    std::vector<decltype(value(std::uint64_t{}))> out;
    out.reserve(mine_.size());
    for (const auto& range : mine_.ranges())
      for (std::uint64_t row = range.first; row < range.first + range.count; ++row) out.push_back(value(row));
    return out;
  }

  // Collective: the element-wise sum or maximum (not minimum) over ranks of `table`, every rank's full table of
  // rows() values, for this rank's rows only, in row order. One MPI_Reduce_scatter over the rows
  // sorted by owner, so no rank receives totals of rows it does not own. When no rank has a non-zero
  // value in a row it does not own (the chunk fabric counts only the ports of the node handling a
  // chunk), a one-word all-reduce establishes it and the tables are not exchanged at all.
  [[nodiscard]] std::vector<std::uint64_t> reduce(const boost::mpi::communicator& comm,
                                                  std::span<const std::uint64_t> table, pdes::Reduction op) const;

 private:
  std::vector<std::int32_t> owner_;
  std::vector<int> rows_of_rank_;  // rows per rank
  hdf5::RowSet mine_;
  int rank_;
};

}  // namespace rackscale::io
