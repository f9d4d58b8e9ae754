#include "pdes/rank_reduce.hpp"

#include <stdexcept>

#include <boost/mpi/exception.hpp>

namespace rackscale::pdes {
namespace {
void reduce(const boost::mpi::communicator& comm, const std::uint64_t* in, std::uint64_t* out, std::size_t n,
            MPI_Op op) {
  BOOST_MPI_CHECK_RESULT(MPI_Allreduce, (in, out, static_cast<int>(n), MPI_UINT64_T, op, MPI_Comm(comm)));
}
}  // namespace

std::uint64_t min_over_ranks(const boost::mpi::communicator& comm, std::uint64_t value) {
  std::uint64_t result = 0;
  reduce(comm, &value, &result, 1, MPI_MIN);
  return result;
}

std::uint64_t max_over_ranks(const boost::mpi::communicator& comm, std::uint64_t value) {
  std::uint64_t result = 0;
  reduce(comm, &value, &result, 1, MPI_MAX);
  return result;
}

void min_over_ranks(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                    std::span<std::uint64_t> out) {
  if (in.size() != out.size()) throw std::invalid_argument("min_over_ranks: input and output lengths differ");
  reduce(comm, in.data(), out.data(), in.size(), MPI_MIN);
}

namespace {
MPI_Op mpi_op(Reduction op) { return op == Reduction::sum ? MPI_SUM : op == Reduction::min ? MPI_MIN : MPI_MAX; }
}  // namespace

void reduce_to_all(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                   std::span<std::uint64_t> out, Reduction op) {
  if (in.size() != out.size()) throw std::invalid_argument("reduce_to_all: input and output lengths differ");
  reduce(comm, in.data(), out.data(), in.size(), mpi_op(op));
}

void reduce_to_root(const boost::mpi::communicator& comm, std::span<const std::uint64_t> in,
                    std::span<std::uint64_t> out, Reduction op, int root) {
  if (comm.rank() == root && in.size() != out.size())
    throw std::invalid_argument("reduce_to_root: input and output lengths differ");
  BOOST_MPI_CHECK_RESULT(MPI_Reduce, (in.data(), comm.rank() == root ? out.data() : nullptr,
                                      static_cast<int>(in.size()), MPI_UINT64_T, mpi_op(op), root, MPI_Comm(comm)));
}

}  // namespace rackscale::pdes
