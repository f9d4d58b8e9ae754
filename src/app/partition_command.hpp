#pragma once
// `rackscale partition`: places a scenario's racks on ranks without simulating, and reports what each
// rank gets and what the placement costs (imbalance, cables and bandwidth between ranks, lookahead),
// so placements and rank counts can be compared before a run.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"

namespace rackscale::app {

class PartitionCommand final : public Command {
 public:
  explicit PartitionCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  // Rank 0 does the work and prints; the exit code is broadcast so every rank returns the same one.
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  [[nodiscard]] int run() const;

  CLI::App* command_;
  std::string config_;
  int ranks_ = 1;
  std::string method_;  // empty: the scenario's simulation.partition
  std::vector<std::string> overrides_;
  bool json_ = false;
};

}  // namespace rackscale::app
