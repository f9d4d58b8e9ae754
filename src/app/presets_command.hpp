#pragma once
// `rackscale presets`: lists the hardware and model presets by kind, one line each with its key
// figures and source; `rackscale presets show NAME` prints one preset with every field resolved.
// Both take --json.
#include <string>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"

namespace rackscale::app {

class PresetsCommand final : public Command {
 public:
  explicit PresetsCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  // Rank 0 reads the presets and prints; every rank returns its exit code.
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  [[nodiscard]] int list() const;
  [[nodiscard]] int show() const;

  CLI::App* command_;
  CLI::App* show_;
  std::string kind_;  // empty: every kind
  std::string name_;
  bool json_ = false;
};

}  // namespace rackscale::app
