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

}  // namespace rackscale::pdes
