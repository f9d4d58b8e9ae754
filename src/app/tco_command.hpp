#pragma once
// `rackscale tco CONFIG (--gpu-hours H | --days D) [--power-per-device W] [--utilization U] [--pue P]
// [--grid NAME|G] [--price-per-gpu-hour USD] [--set k=v ...] [--json]`: the energy, cost and carbon of a
// run from its device-hours, without simulating it (models/tco/accounting.hpp; docs/tco.md). The
// cluster (its hardware and bill of materials) and the `tco:` section come from the config.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"

namespace rackscale::app {

class TcoCommand final : public Command {
 public:
  explicit TcoCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  std::string config_;
  std::vector<std::string> overrides_;
  std::optional<double> gpu_hours_;
  std::optional<double> days_;
  std::optional<double> power_per_device_;
  double utilization_ = 0.75;
  std::optional<double> pue_;
  std::string grid_;
  std::optional<double> price_per_gpu_hour_;
  bool json_ = false;
};

}  // namespace rackscale::app
