#include "app/run_command.hpp"

#include <chrono>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "app/collective_run.hpp"
#include "app/exit_codes.hpp"
#include "app/run_failure.hpp"
#include "app/memory_fit.hpp"
#include "app/memory_limit.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/statistics_figures.hpp"
#include "io/traffic_summary.hpp"
#include "io/training_summary.hpp"
#include "app/training_output.hpp"
#include "app/trace_run.hpp"
#include "app/training_run.hpp"
#include "app/window_timeout_option.hpp"
#include "models/memory/infeasible_job.hpp"
#include "partition/partitioner.hpp"
#include "pdes/error.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/sync.hpp"

namespace rackscale::app {

RunCommand::RunCommand(CLI::App& parent, const ConsoleOptions& console)
    : command_(parent.add_subcommand("run", "Simulate a scenario described by a YAML config")), console_(console) {
  command_->add_option("config", config_, "Scenario file (YAML; see docs/config.md)")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  command_->add_option("--partition", options_.partition,
                       fmt::format("Rack placement on ranks: {} (default: the config's simulation.partition; metis, round_robin for training)",
                                   fmt::join(partition::partitioner_names(), ", ")));
  command_->add_option("--queue", options_.queue, fmt::format("Event queue: {} (default {})",
                                                              fmt::join(pdes::event_queue_names(), ", "),
                                                              pdes::default_event_queue()));
  command_->add_option("--sync", options_.sync,
                       fmt::format("Window synchronizer: {}", fmt::join(pdes::synchronizer_names(), ", ")))
      ->capture_default_str();
  command_->add_flag("--json", json_, "Also print the results as one JSON object on the last line");
  command_->add_flag("--statistics", statistics_,
                     "Also print every figure the workload declared, reduced over ranks, after the summary "
                     "(training, traffic and trace runs; docs/sim.md)");
  command_->add_option("--output", output_.path, "Write the results to this HDF5 file (docs/output.md)");
  add_window_timeout_option(*command_, options_.window_timeout_seconds);
  add_trace_options(*command_, trace_);
  add_checkpoint_options(*command_, options_.checkpoints);
  add_max_memory_option(*command_, max_memory_);
  command_->add_flag("--force", output_.force, "Replace the --output or --trace file if it exists");
}

int RunCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale run: " << message << '\n';
    return code;
  };
  // Command-line choices first, so their errors name the option rather than the config file.
  try {
    if (!options_.partition.empty()) (void)partition::make_partitioner(options_.partition);
    if (!options_.queue.empty()) (void)pdes::make_event_queue(options_.queue);
    (void)pdes::make_synchronizer(options_.sync, comm);
  } catch (const std::invalid_argument& e) {
    return fail(kExitBadInput, e.what());
  }
  // A trace holds the spans of the whole run in memory; a restarted run would write only the spans
  // after its checkpoint.
  if (!trace_.path.empty() && (!options_.checkpoints.checkpoint.empty() || !options_.checkpoints.restart.empty()))
    return fail(kExitBadInput, "--trace cannot be combined with --checkpoint or --restart: a restarted run would "
                               "trace only what it simulates after its checkpoint");
  models::Scenario scenario;
  const auto load_start = std::chrono::steady_clock::now();
  try {
    scenario = io::load_scenario(config_, overrides_);
  } catch (const io::ConfigError& e) {
    return fail(kExitBadInput, e.what());
  }
  // Before anything is built or any file touched: a run that cannot fit is refused whole.
  try {
    const MemoryVerdict memory = check_memory_fits(comm, scenario, max_memory_);
    if (!memory.refusal.empty()) {
      if (memory.printer) std::cerr << "rackscale run: " << memory.refusal << '\n';
      return kExitInfeasible;
    }
  } catch (const std::invalid_argument& e) {
    return fail(kExitBadInput, locate_error(scenario, e.what()));
  }
  PreparedTrace trace = prepare_trace(comm, scenario, trace_, output_.force);
  if (!trace.problem.empty()) return fail(kExitBadInput, trace.problem);
  spdlog::debug("config {} loaded in {:.3f} s: scenario '{}'", config_,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count(), scenario.name);
  options_.progress = console_.progress(comm);
  options_.config_hash = scenario_hash(scenario.resolved_yaml);
  if (scenario.workload.kind == models::WorkloadKind::collective) {
    if (statistics_)
      return fail(kExitBadInput, "--statistics: a collective sweep runs one engine per size and declares no statistics "
                                 "(its --json and --output have every figure)");
    return run_collective_scenario(comm, scenario, options_, json_, output_);
  }
  if (scenario.workload.kind == models::WorkloadKind::trace)
    return run_trace_scenario(comm, scenario, options_, {json_, statistics_}, output_);
  if (scenario.workload.kind == models::WorkloadKind::training) {
    if (const std::string refused = check_output(comm, output_); !refused.empty()) return fail(kExitBadInput, refused);
    models::workload::TrainingReport training;
    try {
      training = run_training(comm, scenario, options_, *trace.trace, training_output(comm, scenario, output_));
    } catch (...) {
      const RunFailure failure = run_failure(scenario);
      return fail(failure.exit_code, failure.message);
    }
    if (!printer) return kExitOk;
    std::cout << io::training_summary(scenario, training);
    if (statistics_) std::cout << io::statistics_text(training.statistics);
    if (json_) std::cout << io::training_json(scenario, training).dump() << '\n';
    return kExitOk;
  }
  if (const std::string refused = prepare_traffic_output(comm, scenario, output_, options_); !refused.empty())
    return fail(kExitBadInput, refused);
  models::traffic::TrafficReport report;
  try {
    report = run_traffic(comm, scenario, options_);
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << io::traffic_summary(scenario, report);
  if (statistics_) std::cout << io::statistics_text(report.statistics);
  if (json_) std::cout << io::traffic_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
