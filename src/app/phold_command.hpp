#pragma once
// `rackscale phold`: the PHOLD benchmark from the command line.
#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/phold_run.hpp"

namespace rackscale::app {

class PholdCommand {
 public:
  explicit PholdCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const { return command_->parsed(); }
  // Runs on every rank; rank 0 prints. Returns the exit code.
  int execute(const boost::mpi::communicator& comm) const;

 private:
  CLI::App* command_;
  PholdRun run_;
  double lookahead_ns_ = 100;
  double mean_ns_ = 900;
  double end_ns_ = 1'000'000;
  bool json_ = false;
};

}  // namespace rackscale::app
