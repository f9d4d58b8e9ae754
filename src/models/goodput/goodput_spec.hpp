#pragma once
// The `goodput:` section and `cluster.storage` of a scenario, as validated structs (docs/goodput.md,
// docs/config.md "Goodput"). Defaults: Llama 3's interruption statistics (llama3_failures.hpp); every
// time below is an ASSUMPTION documented in docs/goodput.md, to override per scenario: detection,
// relaunch and swap were chosen so that the 16,384-H100 example's goodput (90 %) meets Llama 3's report
// of "higher than 90% effective training time" (Dubey et al. 2024, 3.3.4), a calibration, not a measurement.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/goodput/failure_class.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::goodput {

// The checkpoint store. A write or read of B bytes takes B / min(bandwidth, nodes x per_node_bandwidth).
struct StorageSpec {
  double bandwidth_Bps = 2e12;         // aggregate; Llama 3's Tectonic sustained 2 TB/s (Dubey et al. 2024, 3.3.4)
  double per_node_bandwidth_Bps = 0;   // 0: no per-node limit
};

enum class CheckpointMode { synchronous, asynchronous };

struct CheckpointSpec {
  std::optional<pdes::SimTime> interval;  // of work between checkpoints; empty: Young/Daly's
  CheckpointMode mode = CheckpointMode::synchronous;
  double overlap = 0.9;                   // asynchronous: the share of the write hidden behind training
  std::optional<std::uint64_t> bytes;     // empty: weights and optimizer state of the model
};

struct GoodputSpec {
  // false: `rackscale run` leaves the goodput estimate out of a training run's summary (the section
  // still configures `rackscale goodput` and `rackscale search --objective goodput_time`).
  bool enabled = true;
  std::vector<FailureClass> failures;     // empty in a default-constructed spec; the loader fills Llama 3's
  pdes::SimTime detection = 3 * 60 * pdes::kSecond;   // from the fault to the job's stop
  pdes::SimTime relaunch = 7 * 60 * pdes::kSecond;    // scheduling and initializing the job again
  pdes::SimTime hot_swap = 5 * 60 * pdes::kSecond;    // putting a spare node in a failed node's place
  pdes::SimTime repair = 24 * 3600 * pdes::kSecond;   // a failed node back in the spare pool
  std::optional<std::uint32_t> spares;                // spare nodes; empty: 1 % of the job's nodes, rounded up
  CheckpointSpec checkpoint;
  StorageSpec storage;
};

}  // namespace rackscale::models::goodput
