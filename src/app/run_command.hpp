#pragma once
// `rackscale run CONFIG`: simulates a scenario and prints its summary.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/command.hpp"
#include "app/console_options.hpp"
#include "app/network_run.hpp"
#include "app/trace_output.hpp"
#include "app/traffic_output.hpp"

namespace rackscale::app {

class RunCommand final : public Command {
 public:
  RunCommand(CLI::App& parent, const ConsoleOptions& console);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  const ConsoleOptions& console_;
  std::string config_;
  std::vector<std::string> overrides_;
  RunOptions options_;
  OutputOptions output_;
  TraceOptions trace_;
  bool json_ = false;
  bool statistics_ = false;  // --statistics: the registry's figures after the summary
  std::uint64_t max_memory_ = 0;  // --max-memory; 0: not given
};

}  // namespace rackscale::app
