#include "models/network/fidelity.hpp"
#include "io/results_metadata.hpp"

#include <ctime>
#include <functional>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

namespace rackscale::io {

namespace {
std::string utc_now() { return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr))); }
}  // namespace

RunMetadata engine_run_metadata(const boost::mpi::communicator& comm, std::string workload, std::string topology,
                                std::string partition_method, double setup_s, const pdes::Engine& engine,
                                const pdes::EngineStats& stats) {
  RunMetadata run;
  run.workload = std::move(workload);
  run.topology = std::move(topology);
  run.partition_method = std::move(partition_method);
  run.setup_s = setup_s;
  run.wall_s = boost::mpi::all_reduce(comm, stats.wall_seconds, boost::mpi::maximum<double>());
  run.events = boost::mpi::all_reduce(comm, stats.events_processed, std::plus<std::uint64_t>());
  run.windows = stats.windows;
  run.lookahead_ps = engine.lookahead();
  run.final_time_ps = stats.final_time;
  return run;
}

void write_root_attributes(hdf5::File& file, const models::Scenario& scenario, const ProgramInfo& program,
                           const RunMetadata& run) {
  file.set_attribute("format", "rackscale results");
  file.set_attribute("format_version", kResultsFormatVersion);
  file.set_attribute("program_version", program.version);
  file.set_attribute("git_revision", program.git_revision);
  file.set_attribute("workload", run.workload);
  file.set_attribute("scenario", scenario.name);
  file.set_attribute("description", scenario.description);
  file.set_attribute("config", scenario.resolved_yaml);
  file.set_attribute("config_file", scenario.source_file);
  file.set_attribute("overrides", std::span<const std::string>(scenario.overrides));
  file.set_attribute("topology", run.topology);
  file.set_attribute("network_fidelity", std::string(models::network::fidelity_name(scenario.network.fidelity)));
  file.set_attribute("seed", scenario.simulation.seed);
  file.set_attribute("ranks", static_cast<std::int64_t>(file.comm().size()));
  file.set_attribute("partition_method", run.partition_method);
  file.set_attribute("created", utc_now());
  file.set_attribute("setup_s", run.setup_s);
  file.set_attribute("wall_s", run.wall_s);
  file.set_attribute("events", run.events);
  file.set_attribute("events_per_s", run.wall_s > 0 ? static_cast<double>(run.events) / run.wall_s : 0.0);
  file.set_attribute("windows", run.windows);
  file.set_attribute("lookahead_ps", run.lookahead_ps);
  file.set_attribute("final_time_ps", run.final_time_ps);
}

}  // namespace rackscale::io
