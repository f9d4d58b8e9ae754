#include "app/rank_zero.hpp"

#include <exception>
#include <iostream>

#include <boost/mpi/collectives/broadcast.hpp>

#include "app/exit_codes.hpp"

namespace rackscale::app {

int run_on_rank_zero(const boost::mpi::communicator& comm, std::string_view prefix, const std::function<int()>& work) {
  int code = kExitOk;
  if (comm.rank() == 0) {
    try {
      code = work();
    } catch (const std::exception& e) {
      std::cerr << prefix << "internal error: " << e.what() << '\n';
      code = kExitInternalError;
    }
  }
  boost::mpi::broadcast(comm, code, 0);
  return code;
}

}  // namespace rackscale::app
