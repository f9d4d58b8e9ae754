#pragma once
// `rackscale search CONFIG [--objective time|cost|carbon|tokens_per_dollar] [--top K] [--space SPEC]
// [--simulate N] [--ranks-per-candidate R] [--fidelity analytical|chunk|train] [--set k=v ...] [--json]`:
// the best parallel layouts of the config's training job on its cluster (app/layout_search.hpp;
// docs/search.md).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"

namespace rackscale::app {

class SearchCommand final : public Command {
 public:
  explicit SearchCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  std::string config_;
  std::vector<std::string> overrides_;
  std::string objective_ = "time";
  std::uint32_t top_ = 10;
  std::string space_;
  std::uint32_t simulate_ = 8;
  std::uint32_t ranks_per_candidate_ = 1;
  std::string fidelity_;
  std::string cluster_space_;
  std::string output_;
  bool resume_ = false;
  bool exhaustive_ = false;
  bool json_ = false;
  bool quiet_ = false;
  std::optional<double> budget_;    // dollars
  std::optional<double> deadline_;  // days
};

}  // namespace rackscale::app
