#include "app/phold_command.hpp"

#include <cmath>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/exit_codes.hpp"
#include "app/window_timeout_option.hpp"
#include "io/engine_report.hpp"
#include "io/text_table.hpp"
#include "partition/partitioner.hpp"
#include "pdes/error.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/sync.hpp"

namespace rackscale::app {
namespace {
// Nanoseconds on the command line, picoseconds inside: exact to 1 ps or an error naming the option.
pdes::SimTime picoseconds(const char* option, double ns) {
  const double ps = ns * 1000.0;
  if (!std::isfinite(ps) || ps < 0.0 || ps > 9.0e18)
    throw std::invalid_argument(fmt::format("{} must be a non-negative number of nanoseconds; got {}", option, ns));
  const double whole = std::round(ps);
  if (std::abs(ps - whole) > 1e-6)
    throw std::invalid_argument(fmt::format("{} must be a whole number of picoseconds; got {} ns", option, ns));
  return static_cast<pdes::SimTime>(whole);
}
}  // namespace

PholdCommand::PholdCommand(CLI::App& parent, const ConsoleOptions& console)
    : command_(parent.add_subcommand("phold", "Run the PHOLD benchmark (ROSS semantics) on the PDES engine")),
      console_(console) {
  auto& m = run_.model;
  command_->add_option("--lps", m.lps, "Total number of LPs, placed on ranks in contiguous blocks")
      ->capture_default_str();
  command_->add_option("--remote", m.remote, "Probability that an event goes to a uniformly random LP")
      ->capture_default_str();
  command_->add_option("--lookahead", lookahead_ns_, "Minimum increment and lookahead (ns)")->capture_default_str();
  command_->add_option("--mean", mean_ns_, "Mean increment (ns): lookahead + Exp(mean - lookahead)")
      ->capture_default_str();
  command_->add_option("--start-events", m.start_events, "Events each LP starts with")->capture_default_str();
  command_->add_option("--end", end_ns_, "End time (ns): events at or after it are dropped")->capture_default_str();
  command_->add_option("--seed", run_.seed, "Run seed")->capture_default_str();
  command_->add_option("--queue", run_.queue, fmt::format("Event queue: {} (default {})",
                                                          fmt::join(pdes::event_queue_names(), ", "),
                                                          pdes::default_event_queue()));
  command_->add_option("--sync", run_.sync,
                       fmt::format("Window synchronizer: {}", fmt::join(pdes::synchronizer_names(), ", ")))
      ->capture_default_str();
  command_->add_option("--placement", run_.placement,
                       fmt::format("LP placement on ranks: {}", fmt::join(partition::partitioner_names(), ", ")))
      ->capture_default_str();
  add_window_timeout_option(*command_, run_.window_timeout_seconds);
  command_->add_flag("--json", json_, "Also print the results as one JSON object on the last line");
  add_checkpoint_options(*command_, run_.checkpoints);
}

int PholdCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  PholdRun run = run_;
  run.progress = console_.progress(comm);
  PholdResult result;
  try {
    run.model.lookahead = picoseconds("--lookahead", lookahead_ns_);
    run.model.mean = picoseconds("--mean", mean_ns_);
    run.end = picoseconds("--end", end_ns_);
    result = run_phold(comm, run);
  } catch (const RunStopped& e) {
    if (printer) std::cerr << "rackscale phold: " << e.what() << '\n';
    return kExitStopped;
  } catch (const pdes::CheckpointWriteFailed& e) {
    if (printer) std::cerr << "rackscale phold: " << e.what() << '\n';
    return kExitInternalError;
  } catch (const std::invalid_argument& e) {
    if (printer) std::cerr << "rackscale phold: error: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const pdes::SimulationError& e) {
    if (printer) std::cerr << "rackscale phold: simulation failed: " << e.what() << '\n';
    return kExitInternalError;
  }
  if (!printer) return kExitOk;

  const pdes::EngineStats& total = result.engine.total;
  const auto& m = run.model;
  std::cout << fmt::format(
      "PHOLD: {} LPs on {} rank(s) ({} placement), remote {}, lookahead {}, mean {}, {} start event(s) per LP, "
      "end {}, seed {}\n",
      io::with_commas(m.lps), comm.size(), run.placement, m.remote, pdes::format_time(m.lookahead),
      pdes::format_time(m.mean), m.start_events, pdes::format_time(run.end), run.seed);
  std::cout << fmt::format("queue {}, synchronizer {}, lookahead between ranks {}\n\n", result.queue, result.sync,
                           pdes::format_time(total.lookahead));
  using A = io::TextTable::Align;
  io::TextTable summary({"figure", "value"}, {A::left, A::right});
  summary.add_row({"events processed", io::with_commas(result.events)});
  summary.add_row({"event loop wall time", io::format_seconds(total.wall_seconds)});
  summary.add_row({"events/s", io::with_prefix(total.events_per_second(), io::Prefixes::counts, "")});
  summary.add_row({"windows", io::with_commas(total.windows)});
  summary.add_row({"cross-rank events", io::with_commas(total.remote_sent)});
  summary.add_row({"checksum", fmt::format("{:016x}", result.checksum)});
  std::cout << summary.render() << '\n' << io::engine_table(result.engine);

  if (json_) {
    nlohmann::ordered_json j = io::engine_json(result.engine);
    j["checksum"] = fmt::format("{:016x}", result.checksum);
    j["queue"] = result.queue;
    j["sync"] = result.sync;
    // The model's parameters, apart from the engine's figures (its lookahead_ps is the one between ranks).
    j["parameters"] = {{"lps", m.lps},
                       {"remote", m.remote},
                       {"lookahead_ps", m.lookahead},
                       {"mean_ps", m.mean},
                       {"start_events", m.start_events},
                       {"end_ps", run.end == pdes::kNever ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(run.end)},
                       {"seed", run.seed},
                       {"placement", run.placement}};
    std::cout << j.dump() << '\n';
  }
  return kExitOk;
}

}  // namespace rackscale::app
