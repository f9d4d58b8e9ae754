#pragma once
// `rackscale phold`: the PHOLD benchmark from the command line.
#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"
#include "app/console_options.hpp"
#include "app/phold_run.hpp"

namespace rackscale::app {

class PholdCommand final : public Command {
 public:
  PholdCommand(CLI::App& parent, const ConsoleOptions& console);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  const ConsoleOptions& console_;
  PholdRun run_;
  double lookahead_ns_ = 100;
  double mean_ns_ = 900;
  double end_ns_ = 1'000'000;
  bool json_ = false;
};

}  // namespace rackscale::app
