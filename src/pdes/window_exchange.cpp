#include "pdes/window_exchange.hpp"

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>

#include "pdes/error.hpp"

namespace rackscale::pdes {

void raise_window_failure(const boost::mpi::communicator& comm, int lowest_failing_rank,
                          const std::string& my_failure) {
  std::string message = comm.rank() == lowest_failing_rank ? my_failure : std::string{};
  boost::mpi::broadcast(comm, message, lowest_failing_rank);
  throw SimulationError(lowest_failing_rank, message);
}

}  // namespace rackscale::pdes
