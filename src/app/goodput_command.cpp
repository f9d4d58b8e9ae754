#include "app/goodput_command.hpp"

#include <iostream>
#include <stdexcept>

#include "app/exit_codes.hpp"
#include "app/goodput_output.hpp"
#include "app/goodput_run.hpp"
#include "app/run_failure.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/config/units.hpp"

namespace rackscale::app {

GoodputCommand::GoodputCommand(CLI::App& parent, const ConsoleOptions& console)
    : command_(parent.add_subcommand(
          "goodput", "A whole training run with its interruptions, checkpoints and restarts: time, goodput, cost, carbon")),
      console_(console) {
  command_->add_option("config", config_, "Scenario file (YAML): the cluster, the job, goodput: and tco:")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set goodput.spares=32 (repeatable)");
  command_->add_option("--replicas", replicas_, "Runs of the whole training with different interruptions (default 100)")
      ->check(CLI::Range(1u, 1'000'000u));
  command_->add_option("--iteration-time", iteration_time_,
                       "One iteration's time, e.g. 5.9s (default: simulate one iteration of the training job)");
  command_->add_option("--days", days_, "The ideal run's length in days (default: tco.token_budget's iterations)")
      ->check(CLI::PositiveNumber);
  command_->add_option("--seed", seed_, "Seed of the interruptions (default: simulation.seed)");
  command_->add_option("--utilization", utilization_,
                       "Accelerators' and hosts' utilization while the job runs, for the energy (default 0.75)")
      ->check(CLI::Range(0.0, 1.0));
  command_->add_flag("--json", json_, "Also print the figures as one JSON object on the last line");
}

int GoodputCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale goodput: " << message << '\n';
    return code;
  };
  GoodputRequest request;
  request.replicas = replicas_;
  request.days = days_;
  request.seed = seed_;
  request.utilization = utilization_;
  if (!iteration_time_.empty()) {
    try {
      request.iteration_time = io::parse_duration(iteration_time_);
    } catch (const std::invalid_argument& e) {
      return fail(kExitBadInput, std::string("--iteration-time: ") + e.what());
    }
  }
  models::Scenario scenario;
  try {
    scenario = io::load_scenario(config_, overrides_);
  } catch (const io::ConfigError& e) {
    return fail(kExitBadInput, e.what());
  }
  RunOptions options;
  options.progress = console_.progress(comm);
  options.config_hash = scenario_hash(scenario.resolved_yaml);
  GoodputReport report;
  try {
    report = run_goodput(comm, scenario, request, options);
  } catch (const std::invalid_argument& e) {
    return fail(kExitBadInput, locate_error(scenario, e.what()));
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    return fail(failure.exit_code, failure.message);
  }
  if (!printer) return kExitOk;
  std::cout << goodput_summary(scenario, report);
  if (json_) std::cout << goodput_json(scenario, report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
