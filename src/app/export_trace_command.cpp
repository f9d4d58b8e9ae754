#include "app/export_trace_command.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/format.h>

#include "app/exit_codes.hpp"
#include "io/chakra/chakra_file.hpp"
#include "io/chakra/rank_map.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/workload/group_directory.hpp"
#include "models/workload/trace_export.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_role.hpp"

namespace rackscale::app {

namespace wl = models::workload;

ExportedTraces export_traces(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                             const std::filesystem::path& dir, bool by_role) {
  if (scenario.workload.kind != models::WorkloadKind::training)
    throw std::invalid_argument("workload.type: export-trace exports a training job's programs, found another workload type");
  const wl::TrainingPlan plan = wl::build_training_plan(scenario.workload.training, scenario.cluster);
  wl::GroupDirectory groups(plan.layout);
  const auto devices = static_cast<std::uint32_t>(scenario.cluster.devices());
  ExportedTraces exported;
  // By role, the devices whose traces are written: each role's first (devices of a role share its program).
  std::vector<std::uint32_t> written;
  std::vector<std::uint32_t> role_of;
  if (by_role) {
    exported.files = (dir / (scenario.name + ".role.%d.et")).string();
    exported.rank_map = (dir / (scenario.name + ".ranks")).string();
    written.assign(plan.layout.roles(), devices);
    role_of.resize(devices);
    for (std::uint32_t device = 0; device < devices; ++device) {
      role_of[device] = plan.layout.role_of(device);
      written[role_of[device]] = std::min(written[role_of[device]], device);
    }
  } else {
    exported.files = (dir / (scenario.name + ".%d.et")).string();
    written.resize(devices);
    for (std::uint32_t device = 0; device < devices; ++device) written[device] = device;
  }
  exported.traces = static_cast<std::uint32_t>(written.size());
  std::string failure;
  if (comm.rank() == 0) std::filesystem::create_directories(dir);
  comm.barrier();
  const wl::TraceExportForm form = by_role ? wl::TraceExportForm::by_role : wl::TraceExportForm::per_device;
  for (std::uint32_t n = static_cast<std::uint32_t>(comm.rank()); n < written.size() && failure.empty();
       n += static_cast<std::uint32_t>(comm.size())) {
    try {
      const wl::TrainingRole role(plan, groups, written[n]);
      const wl::TraceGraph graph = wl::export_program(role, scenario.cluster.accelerator, form);
      io::write_chakra_trace(dir / fmt::format(fmt::runtime(by_role ? "{}.role.{}.et" : "{}.{}.et"), scenario.name, n), graph);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (by_role && comm.rank() == 0 && failure.empty()) {
    try {
      io::write_rank_map(exported.rank_map, role_of);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  // Every rank learns whether one failed.
  const int failed = boost::mpi::all_reduce(comm, failure.empty() ? 0 : 1, boost::mpi::maximum<int>());
  if (failed != 0) throw std::runtime_error(failure.empty() ? "another rank could not write its traces" : failure);
  return exported;
}

ExportTraceCommand::ExportTraceCommand(CLI::App& parent)
    : command_(parent.add_subcommand("export-trace",
                                     "Write a training config's per-device programs as execution traces (docs/traces.md)")) {
  command_->add_option("config", config_, "Scenario file with a training workload (YAML)")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  command_->add_option("--format", format_, "Trace format: chakra")->check(CLI::IsMember({"chakra"}))->capture_default_str();
  command_->add_option("-o,--output", output_, "Directory for the traces, one NAME.D.et per device")->required();
  command_->add_flag("--by-role", by_role_,
                     "One trace per role (NAME.role.R.et: the devices of a pipeline stage run one program) and the rank "
                     "map NAME.ranks");
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
  ExportedTraces exported;
  try {
    exported = export_traces(comm, scenario, output_, by_role_);
  } catch (const std::invalid_argument& e) {
    return fail(kExitBadInput, scenario.source_file + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(kExitInternalError, e.what());
  }
  if (printer && by_role_)
    std::cout << fmt::format("wrote {} role traces for {} devices: {}, rank map {}\nreplay them with  workload: "
                             "{{type: trace, format: chakra, files: \"{}\", rank_map: \"{}\"}}\n",
                             exported.traces, scenario.cluster.devices(), exported.files, exported.rank_map,
                             exported.files, exported.rank_map);
  if (printer && !by_role_)
    std::cout << fmt::format("wrote {} traces: {}\nreplay them with  workload: {{type: trace, format: chakra, files: \"{}\"}}\n",
                             exported.traces, exported.files, exported.files);
  return kExitOk;
}

}  // namespace rackscale::app
