#include "app/console_options.hpp"

#include <charconv>
#include <iostream>

#include <fmt/format.h>
#include <unistd.h>

#include "app/logging.hpp"
#include "io/progress/make_progress.hpp"

namespace rackscale::app {
namespace {
// --log-ranks: "all", or the one rank that logs.
constexpr const char* kAllRanks = "all";

bool parse_rank(const std::string& text, int& rank) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, rank);
  return error == std::errc{} && stop == end && rank >= 0;
}
}  // namespace

ConsoleOptions::ConsoleOptions(CLI::App& cli) {
  const std::string group = "Console (any subcommand)";
  cli.add_option("--log-level", log_level_, "Diagnostics on standard error from this level up")
      ->check(CLI::IsMember(log_level_names()))
      ->capture_default_str()
      ->group(group);
  cli.add_option("--log-ranks", log_ranks_,
                 "Ranks that log: 0 (default; a message every rank would repeat appears once), another rank "
                 "number, or all")
      ->capture_default_str()
      ->group(group);
  cli.add_option("--progress", progress_,
                 "Progress of run and phold on rank 0 (auto: tty when standard error is a terminal, else lines)")
      ->check(CLI::IsMember(io::progress_mode_names()))
      ->capture_default_str()
      ->group(group);
  cli.add_option("--progress-interval", progress_interval_,
                 fmt::format("Seconds between progress reports (default {} on a terminal, {} for lines)",
                             io::kTerminalProgressInterval, io::kLineProgressInterval))
      ->check(CLI::PositiveNumber)
      ->group(group);
}

std::string ConsoleOptions::apply(const boost::mpi::communicator& comm) const {
  bool this_rank_logs = log_ranks_ == kAllRanks;
  if (!this_rank_logs) {
    int rank = 0;
    if (!parse_rank(log_ranks_, rank) || rank >= comm.size())
      return fmt::format("--log-ranks: expected all or a rank from 0 to {}, found '{}'", comm.size() - 1, log_ranks_);
    this_rank_logs = rank == comm.rank();
  }
  configure_logging(log_level_, this_rank_logs, comm.rank());
  return {};
}

std::shared_ptr<pdes::ProgressMonitor> ConsoleOptions::progress(const boost::mpi::communicator& comm) const {
  if (comm.rank() != 0) return std::make_shared<pdes::NoProgress>();
  return io::make_progress(progress_, progress_interval_, isatty(STDERR_FILENO) != 0, std::cerr);
}

}  // namespace rackscale::app
