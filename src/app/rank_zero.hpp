#pragma once
// For subcommands whose work is cheap and must not depend on the rank count (partition, presets): rank
// 0 does it and prints, and the exit code is broadcast so every rank returns the same one. Every
// exception is caught on rank 0 (an internal error, reported after `prefix`) so that rank 0 always
// reaches the broadcast.
#include <functional>
#include <string_view>

#include <boost/mpi/communicator.hpp>

namespace rackscale::app {

[[nodiscard]] int run_on_rank_zero(const boost::mpi::communicator& comm, std::string_view prefix,
                                   const std::function<int()>& work);

}  // namespace rackscale::app
