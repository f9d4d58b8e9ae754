#pragma once
// The host memory a run will need per rank, estimated from the scenario before anything is built
// (docs/reliability.md, "Memory"): `rackscale run` refuses a run whose estimate does not fit the job's
// memory limit (memory_limit.hpp), `rackscale validate` prints it, and an allocation failure's message
// quotes it.
//
// What it counts, for the rank with the most LPs: the process itself (libraries, MPI), the topology
// (every rank holds all of it), the per-port counters (every port, every rank), the engine's tables
// over every LP, this rank's LPs and their output ports, the path caches, the workload's plan (for
// training: every stage's program and its index), per local device the workload's state (executor,
// collective engine) and the events and messages it has in flight. Object sizes are sizeof() of the
// real types; the process base and the per-device figures for state in flight are calibrated against
// measured peak RSS (docs/reliability.md lists the figures). Not counted: results files and traces
// being written (buffered in blocks), checkpoints (written from the LPs' state), the transient copies
// of the last reductions beyond the port columns.
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace rackscale::app {

struct MemoryPart {
  std::string what;  // "topology (every rank holds all of it)"
  std::uint64_t bytes = 0;
};

struct MemoryEstimate {
  int ranks = 1;
  std::uint64_t per_rank = 0;     // bytes, for the rank with the most LPs
  std::uint64_t devices = 0;      // the cluster's
  std::uint64_t local_devices = 0;  // on that rank
  std::vector<MemoryPart> parts;  // per_rank, part by part
};

// Throws std::invalid_argument as build_topology and build_training_plan do (a cluster or workload
// that cannot be built).
[[nodiscard]] MemoryEstimate estimate_memory(const models::Scenario& scenario, int ranks);

// "1.2 GiB per rank on 2 ranks (1,234 of 98,304 devices on the largest)": for messages.
[[nodiscard]] std::string describe_estimate(const MemoryEstimate& estimate);

}  // namespace rackscale::app
