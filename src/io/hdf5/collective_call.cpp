#include "io/hdf5/collective_call.hpp"

#include <mpi.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/exception.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/errno_text.hpp"
#include "io/hdf5/error.hpp"
#include "io/hdf5/injected_failure.hpp"

namespace rackscale::io::hdf5 {

void agree(const boost::mpi::communicator& comm, const std::string& failure) {
  int lowest_failing_rank = failure.empty() ? comm.size() : comm.rank();
  BOOST_MPI_CHECK_RESULT(MPI_Allreduce, (MPI_IN_PLACE, &lowest_failing_rank, 1, MPI_INT, MPI_MIN, MPI_Comm(comm)));
  if (lowest_failing_rank == comm.size()) return;
  std::string message = comm.rank() == lowest_failing_rank ? failure : std::string();
  boost::mpi::broadcast(comm, message, lowest_failing_rank);
  if (comm.size() > 1) message += fmt::format(" (on rank {})", lowest_failing_rank);
  throw Error(message);
}

std::string outcome(const FileContext& context, std::string_view call, std::string_view where, bool failed,
                    int error) {
  if (injected_failure(context.comm.rank(), call)) {
    (void)H5Eclear2(c_api::kErrorStack);
    return fmt::format("{} failed ({}): {} [injected by {}]", call, where, errno_text(EIO), kInjectedFailureVariable);
  }
  if (failed) {
    // MPI-IO does not pass the system's error up through HDF5; the errno the call left behind is the
    // best witness of the cause (a failed write's ENOSPC, EDQUOT or EIO).
    std::string text = c_api::failure_text(call, where);
    if (error != 0) text += fmt::format(" ({})", errno_text(error));
    return text;
  }
  return {};
}

}  // namespace rackscale::io::hdf5
