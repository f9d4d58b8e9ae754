#pragma once
// Wires a traffic scenario together: topology -> rack partition -> engine and network LPs -> run ->
// figures reduced over ranks. Used by `rackscale run` and by the network tests.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "app/checkpoint_options.hpp"
#include "models/network/topology.hpp"
#include "models/scenario.hpp"
#include "models/traffic/traffic_report.hpp"
#include "models/traffic/traffic_run_state.hpp"
#include "pdes/engine.hpp"
#include "pdes/progress.hpp"

namespace rackscale::app {

struct RunOptions {
  std::string partition;  // empty: the scenario's simulation.partition
  std::string queue;      // empty: the engine's default
  std::string sync = "auto";
  std::shared_ptr<pdes::ProgressMonitor> progress = nullptr;  // none shown
  double window_timeout_seconds = pdes::kDefaultWindowTimeoutSeconds;  // --window-timeout (0: off)
  // Called on every rank once the run's figures are reduced, before run_traffic returns (the results
  // file is written here); an exception it throws leaves run_traffic.
  std::function<void(const models::traffic::TrafficRunState&)> on_finished;
  CheckpointOptions checkpoints;   // none by default
  std::uint64_t config_hash = 0;   // what a checkpoint of this run must match (scenario_hash)
};

// Where every run puts the racks: the method (--partition, else the scenario's) and rack -> rank.
struct RackPlacement {
  std::string method;
  std::vector<std::int32_t> rack_rank;
};
// Collective. Rank 0 partitions and broadcasts, so every rank uses the same placement even if a
// partitioner were not bit-for-bit reproducible across processes. An unknown method throws
// std::invalid_argument on every rank, not just rank 0.
[[nodiscard]] RackPlacement place_racks(const boost::mpi::communicator& comm, const models::network::Topology& topology,
                                        const models::Scenario& scenario, const RunOptions& options);
// The engine's options from the command line (queue, sync, progress) and the scenario (seed).
[[nodiscard]] pdes::EngineOptions engine_options_for(const models::Scenario& scenario, const RunOptions& options);

// Collective. Throws std::invalid_argument (bad scenario or options, before simulating; messages start
// with the config key at fault), pdes::CheckpointRefused (a checkpoint that cannot be used),
// pdes::SimulationError (the run failed) and RunStopped (it stopped early).
[[nodiscard]] models::traffic::TrafficReport run_traffic(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                        const RunOptions& options);

}  // namespace rackscale::app
