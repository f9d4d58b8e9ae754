#pragma once
// `rackscale validate CONFIG [--set k=v ...] [--json] [--bom] [--resolved] [--ranks N]`: loads a scenario,
// checks every value, builds its topology and prints what it describes and the memory a run would need
// (memory_estimate.hpp), without simulating anything. Exit 2 on a bad config.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"

namespace rackscale::app {

class ValidateCommand final : public Command {
 public:
  explicit ValidateCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  std::string config_;
  std::vector<std::string> overrides_;
  bool json_ = false;
  bool resolved_ = false;
  bool bom_ = false;
  int ranks_ = 0;  // --ranks: estimate memory for this many ranks (0: the ranks it runs on)
};

}  // namespace rackscale::app
