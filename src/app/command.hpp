#pragma once
// A subcommand of the rackscale command: registers its options with CLI11 when constructed, and
// runs on every rank when chosen.
#include <boost/mpi/communicator.hpp>

namespace rackscale::app {

class Command {
 public:
  virtual ~Command() = default;
  Command() = default;
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  // True when the command line named this subcommand.
  [[nodiscard]] virtual bool chosen() const = 0;
  // Runs on every rank; rank 0 prints. Returns the process exit code (app/exit_codes.hpp).
  [[nodiscard]] virtual int execute(const boost::mpi::communicator& comm) = 0;
};

}  // namespace rackscale::app
