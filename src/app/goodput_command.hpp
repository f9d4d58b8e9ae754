#pragma once
// `rackscale goodput CONFIG [--replicas R] [--iteration-time T] [--days D] [--seed S] [--utilization U]
// [--set k=v ...] [--json]`: the whole training run with its interruptions, checkpoints and restarts,
// R replicas over the ranks, and its time, energy, cost and carbon next to the ideal run's
// (app/goodput_run.hpp; docs/goodput.md).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"
#include "app/console_options.hpp"

namespace rackscale::app {

class GoodputCommand final : public Command {
 public:
  GoodputCommand(CLI::App& parent, const ConsoleOptions& console);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  const ConsoleOptions& console_;
  std::string config_;
  std::vector<std::string> overrides_;
  std::uint32_t replicas_ = 100;
  std::string iteration_time_;
  std::optional<double> days_;
  std::uint64_t seed_ = 0;
  double utilization_ = 0.75;
  bool json_ = false;
};

}  // namespace rackscale::app
