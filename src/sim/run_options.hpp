#pragma once
// How a run is carried out, from the command line: partitioner, queue, synchronization, progress,
// window timeout, checkpoints. The scenario (models/scenario.hpp) says what is simulated.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdes/progress.hpp"
#include "pdes/window_watchdog.hpp"
#include "sim/run_checkpoints.hpp"

namespace rackscale::sim {

struct RunOptions {
  std::string partition;  // empty: the scenario's simulation.partition
  std::string queue;      // empty: the engine's default
  std::string sync = "auto";
  std::shared_ptr<pdes::ProgressMonitor> progress = nullptr;  // none shown
  double window_timeout_seconds = pdes::kDefaultWindowTimeoutSeconds;  // --window-timeout (0: off)
  CheckpointOptions checkpoints;   // none by default
  std::uint64_t config_hash = 0;   // what a checkpoint of this run must match (scenario_hash)
};

// Where every run puts the racks: the method (--partition, else the scenario's) and rack -> rank.
struct RackPlacement {
  std::string method;
  std::vector<std::int32_t> rack_rank;
};

}  // namespace rackscale::sim
