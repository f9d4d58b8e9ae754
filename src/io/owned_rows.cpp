#include "io/owned_rows.hpp"

#include <climits>
#include <stdexcept>

#include <boost/mpi/exception.hpp>
#include <fmt/format.h>

namespace rackscale::io {

OwnedRows::OwnedRows(std::vector<std::int32_t> owner, int ranks, int rank)
    : owner_(std::move(owner)), rows_of_rank_(static_cast<std::size_t>(ranks), 0), rank_(rank) {
  // MPI counts are ints; a table beyond that would need a chunked exchange.
  if (owner_.size() > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument(fmt::format("owned rows: {} rows exceed what one MPI call can carry", owner_.size()));
  for (std::uint64_t row = 0; row < owner_.size(); ++row) {
    const std::int32_t r = owner_[row];
    if (r < 0 || r >= ranks)
      throw std::invalid_argument(fmt::format("owned rows: row {} is owned by rank {}, outside [0, {})", row, r, ranks));
    ++rows_of_rank_[static_cast<std::size_t>(r)];
    if (r == rank) mine_.add(row);
  }
}

std::vector<std::uint64_t> OwnedRows::reduce(const boost::mpi::communicator& comm, std::span<const std::uint64_t> table,
                                             pdes::Reduction op) const {
  if (op == pdes::Reduction::min)
    throw std::invalid_argument("owned rows: only sums and maxima reduce onto owners (absent rows count as 0)");
  if (table.size() != owner_.size())
    throw std::invalid_argument(fmt::format("owned rows: a table of {} values for {} rows", table.size(), owner_.size()));
  std::uint64_t foreign = 0;
  for (std::size_t row = 0; row < table.size() && foreign == 0; ++row)
    if (owner_[row] != rank_ && table[row] != 0) foreign = 1;
  if (pdes::max_over_ranks(comm, foreign) == 0) return pick(table);

  // Rows sorted by owner, each owner's rows in row order: rank r's block of the result is then its
  // own rows in the order the file wants them.
  std::vector<std::size_t> offset(rows_of_rank_.size() + 1, 0);
  for (std::size_t r = 0; r < rows_of_rank_.size(); ++r) offset[r + 1] = offset[r] + static_cast<std::size_t>(rows_of_rank_[r]);
  std::vector<std::uint64_t> sorted(table.size());
  for (std::size_t row = 0; row < table.size(); ++row) sorted[offset[static_cast<std::size_t>(owner_[row])]++] = table[row];
  std::vector<std::uint64_t> out(mine_.size());
  const MPI_Op mpi_op = op == pdes::Reduction::sum ? MPI_SUM : MPI_MAX;
  // MPI_UINT64_T, not Boost.MPI's MPI_UNSIGNED_LONG: see pdes/rank_reduce.hpp.
  BOOST_MPI_CHECK_RESULT(MPI_Reduce_scatter, (sorted.data(), out.data(), rows_of_rank_.data(), MPI_UINT64_T, mpi_op,
                                              MPI_Comm(comm)));
  return out;
}

}  // namespace rackscale::io
