#pragma once
// The options every subcommand shares, given before or after the subcommand's name: how much is
// logged and by which ranks (--log-level, --log-ranks), and how a run's progress is shown (--progress,
// --progress-interval). docs/cli.md describes them.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "pdes/progress.hpp"

namespace rackscale::app {

class ConsoleOptions {
 public:
  // Registers the options on the top-level command.
  explicit ConsoleOptions(CLI::App& cli);

  // After parsing, on every rank: checks what CLI11 could not (--log-ranks against the rank count) and
  // sets up logging. Returns a message naming the option when a value is bad, else an empty string.
  [[nodiscard]] std::string apply(const boost::mpi::communicator& comm) const;

  // The progress display for a run: the chosen one on rank 0, none on the other ranks.
  [[nodiscard]] std::shared_ptr<pdes::ProgressMonitor> progress(const boost::mpi::communicator& comm) const;

 private:
  std::string log_level_ = "info";
  std::string log_ranks_ = "0";
  std::string progress_ = "auto";
  double progress_interval_ = 0;  // seconds; 0: the display's default
};

}  // namespace rackscale::app
