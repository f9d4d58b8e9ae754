#pragma once
// What a finished training run leaves on one rank, for writers of per-rank results (the HDF5 file):
// the rank's own devices and port counters next to the report reduced over ranks. Each rank writes the
// rows of what it owns from here, so nothing is gathered on one rank. The references are valid only
// during the call that receives the state.
#include <cstdint>
#include <span>
#include <vector>

#include "models/accelerator/device_executor.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/topology.hpp"
#include "models/workload/training_layout.hpp"
#include "models/workload/training_report.hpp"
#include "pdes/engine.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::models::workload {

// One device this rank simulated, over the whole run.
struct DeviceRun {
  std::uint32_t device = 0;
  // Where its time went, ps. Includes the wait after its last iteration until the run's end (the
  // pipeline drain): charged as pipeline bubble with more than one stage, as idle otherwise, so the
  // components add up to the run's end for every device.
  accelerator::TimeBreakdown breakdown;
  std::vector<pdes::SimTime> iteration_end;  // when it finished each iteration
  std::uint64_t pipeline_bytes = 0;          // sent to its pipeline neighbours
  std::uint64_t context_bytes = 0;           // sent to its context-ring neighbour (ring attention)
};

struct TrainingRunState {
  const network::Topology& topology;
  std::span<const std::int32_t> rack_rank;  // rack -> rank, the same on every rank
  const pdes::Engine& engine;
  const pdes::EngineStats& engine_stats;    // this rank's
  // This rank's, indexed by port id. The analytical fabric counts a message on every port of its path
  // at the sender, so a rank may hold figures for ports that other ranks own.
  const network::PortCounters& counters;
  const TrainingLayout& layout;
  std::span<const DeviceRun> devices;       // this rank's, in increasing device order
  pdes::SimTime run_end = 0;                // the last device's end of the last iteration
  const TrainingReport& report;             // reduced; `engine` is rank 0's only
};

}  // namespace rackscale::models::workload
