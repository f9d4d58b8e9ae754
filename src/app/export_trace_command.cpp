#include "app/export_trace_command.hpp"

#include <iostream>
#include <stdexcept>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/format.h>

#include "app/exit_codes.hpp"
#include "io/chakra/chakra_file.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/workload/group_directory.hpp"
#include "models/workload/trace_export.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_role.hpp"

namespace rackscale::app {

namespace wl = models::workload;

std::string export_traces(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                          const std::filesystem::path& dir) {
  if (scenario.workload.kind != models::WorkloadKind::training)
    throw std::invalid_argument("workload.type: export-trace exports a training job's programs, found another workload type");
  const wl::TrainingPlan plan = wl::build_training_plan(scenario.workload.training, scenario.cluster);
  wl::GroupDirectory groups(plan.layout);
  const std::string pattern = (dir / (scenario.name + ".%d.et")).string();
  std::string failure;
  if (comm.rank() == 0) std::filesystem::create_directories(dir);
  comm.barrier();
  const auto devices = static_cast<std::uint32_t>(scenario.cluster.devices());
  for (std::uint32_t device = static_cast<std::uint32_t>(comm.rank()); device < devices && failure.empty();
       device += static_cast<std::uint32_t>(comm.size())) {
    try {
      const wl::TrainingRole role(plan, groups, device);
      wl::TraceGraph graph = wl::export_program(role, scenario.cluster.accelerator);
      io::write_chakra_trace(dir / fmt::format("{}.{}.et", scenario.name, device), graph);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  // Every rank learns whether one failed.
  const int failed = boost::mpi::all_reduce(comm, failure.empty() ? 0 : 1, boost::mpi::maximum<int>());
  if (failed != 0) throw std::runtime_error(failure.empty() ? "another rank could not write its traces" : failure);
  return pattern;
}

ExportTraceCommand::ExportTraceCommand(CLI::App& parent)
    : command_(parent.add_subcommand("export-trace",
                                     "Write a training config's per-device programs as execution traces (docs/traces.md)")) {
  command_->add_option("config", config_, "Scenario file with a training workload (YAML)")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  command_->add_option("--format", format_, "Trace format: chakra")->check(CLI::IsMember({"chakra"}))->capture_default_str();
  command_->add_option("-o,--output", output_, "Directory for the traces, one NAME.D.et per device")->required();
}

int ExportTraceCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  const auto fail = [&](int code, const std::string& message) {
    if (printer) std::cerr << "rackscale export-trace: " << message << '\n';
    return code;
  };
  models::Scenario scenario;
  try {
    scenario = io::load_scenario(config_, overrides_);
  } catch (const io::ConfigError& e) {
    return fail(kExitBadInput, e.what());
  }
  std::string pattern;
  try {
    pattern = export_traces(comm, scenario, output_);
  } catch (const std::invalid_argument& e) {
    return fail(kExitBadInput, scenario.source_file + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(kExitInternalError, e.what());
  }
  if (printer)
    std::cout << fmt::format("wrote {} traces: {}\nreplay them with  workload: {{type: trace, format: chakra, files: \"{}\"}}\n",
                             scenario.cluster.devices(), pattern, pattern);
  return kExitOk;
}

}  // namespace rackscale::app
