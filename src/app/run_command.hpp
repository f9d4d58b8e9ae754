#pragma once
// `rackscale run CONFIG`: simulates a scenario and prints its summary.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/command.hpp"
#include "app/network_run.hpp"
#include "app/trace_output.hpp"
#include "app/traffic_output.hpp"

namespace rackscale::app {

class RunCommand final : public Command {
 public:
  explicit RunCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  std::string config_;
  std::vector<std::string> overrides_;
  RunOptions options_;
  OutputOptions output_;
  TraceOptions trace_;
  bool json_ = false;
};

}  // namespace rackscale::app
