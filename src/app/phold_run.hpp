#pragma once
// Wires PHOLD to the engine: places the LPs on ranks, runs, and reduces the results.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "app/checkpoint_options.hpp"
#include "models/phold/phold.hpp"
#include "pdes/progress.hpp"
#include "pdes/window_watchdog.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::app {

struct PholdRun {
  models::phold::Params model;
  pdes::SimTime end = 1'000'000'000;  // ps; events at or after it are dropped
  std::uint64_t seed = 1;
  std::string queue;                  // empty: the engine's default
  std::string sync = "auto";
  std::string placement = "block";    // partitioner that places LPs on ranks
  std::shared_ptr<pdes::ProgressMonitor> progress = nullptr;  // none shown
  double window_timeout_seconds = pdes::kDefaultWindowTimeoutSeconds;  // --window-timeout (0: off)
  CheckpointOptions checkpoints;                              // none by default
};

// What a PHOLD checkpoint must match: every parameter that changes the run's events.
[[nodiscard]] std::uint64_t phold_config_hash(const PholdRun& run);

struct PholdResult {
  pdes::EngineTotals engine;                 // rank 0 only
  std::uint64_t events = 0;                  // every rank
  std::uint64_t checksum = 0;                // every rank; depends on every LP's final state
  std::vector<std::uint64_t> events_per_lp;  // rank 0 only, when asked for
  std::string queue;
  std::string sync;
};

// Collective over `comm`. Throws std::invalid_argument for bad parameters (before simulating),
// pdes::CheckpointRefused for a checkpoint that cannot be used, pdes::SimulationError if the run fails
// and RunStopped if it stopped early.
[[nodiscard]] PholdResult run_phold(const boost::mpi::communicator& comm, const PholdRun& run,
                                    bool gather_events_per_lp = false);

}  // namespace rackscale::app
