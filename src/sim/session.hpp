#pragma once
// One run on the simulated cluster, whatever its workload (sim/workload.hpp): the session builds the
// topology and places its racks once, then runs one engine per call of run() — engine, network LPs with
// the workload's devices, setup timing, checkpoints and restart, stop handling, the one reduction of the
// workload's figures over ranks — and hands the reduced figures to the workload's finish(). A workload
// of several engines (a collective sweep, one engine per size) calls run() once per engine.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/mpi/communicator.hpp>

#include "models/network/partition_report.hpp"
#include "models/network/topology.hpp"
#include "models/scenario.hpp"
#include "pdes/checkpoint_file.hpp"
#include "pdes/engine.hpp"
#include "sim/run_checkpoints.hpp"
#include "sim/run_options.hpp"
#include "sim/workload.hpp"

namespace rackscale::sim {

// Marks what the process is building, for the message when memory runs out (app/memory_phase.hpp).
using PhaseMarker = std::function<void(std::string)>;

// How one engine of a run differs from the session's defaults; a sweep's engines set these.
struct EngineRun {
  const CheckpointOptions* checkpoints = nullptr;  // null: the session's (RunOptions::checkpoints)
  // Saved in front of the engine's state (ModelState::save_position); null: the run is one engine.
  std::function<void(pdes::CheckpointWriter&)> save_position;
  const RestartState* restart = nullptr;  // the engine part of a --restart file read by read_restart
  std::uint64_t windows_before = 0;       // earlier engines' windows, counted in a stop's message
  // No "building ..." or "simulating ..." message (a sweep's sizes, a baseline run). Progress lines still
  // show when the engine runs longer than their interval (RunOptions::progress null: none).
  bool quiet = false;
};

// Collective: where the racks go (the method of RunOptions::partition, else the scenario's). Rank 0
// partitions and broadcasts, so every rank uses the same placement even if a partitioner were not
// bit-for-bit reproducible across processes. An unknown method throws std::invalid_argument on every rank.
[[nodiscard]] RackPlacement place_racks(const boost::mpi::communicator& comm, const models::network::Topology& topology,
                                        const models::Scenario& scenario, const RunOptions& options);
// The engine's options from the command line (queue, sync, progress, window timeout) and the scenario (seed).
[[nodiscard]] pdes::EngineOptions engine_options_for(const models::Scenario& scenario, const RunOptions& options);

class Session {
 public:
  // Collective: builds the topology and places its racks (rank 0 partitions and broadcasts). Throws
  // std::invalid_argument for a bad scenario or an unknown partitioner, on every rank.
  Session(const boost::mpi::communicator& comm, const models::Scenario& scenario, const RunOptions& options,
          PhaseMarker phase = nullptr);

  [[nodiscard]] const boost::mpi::communicator& comm() const noexcept { return comm_; }
  [[nodiscard]] const models::Scenario& scenario() const noexcept { return scenario_; }
  [[nodiscard]] const RunOptions& options() const noexcept { return options_; }
  [[nodiscard]] const models::network::Topology& topology() const noexcept { return topology_; }
  [[nodiscard]] const RackPlacement& placement() const noexcept { return placement_; }
  // The partition's figures for a report's header.
  [[nodiscard]] models::network::PartitionReport partition_report() const;
  // The header every report of a run on the whole cluster carries: the topology, its sizes, the partition.
  template <class Report>
  void fill_header(Report& report) const {
    report.topology = topology_.description;
    report.devices = topology_.device_count();
    report.switches = topology_.switch_count();
    report.cables = topology_.link_count();
    report.racks = topology_.racks.size();
    report.partition = partition_report();
  }
  // What a checkpoint of a `kind` run on this placement must match.
  [[nodiscard]] pdes::CheckpointIdentity checkpoint_identity(std::string_view kind) const;
  void phase(std::string what) const;

  // Collective: the wall time from the session's start to the first call, the longest over ranks; later
  // calls return the same. run() calls it once its first engine is built.
  double setup_seconds();

  // Collective: one engine run of `workload` to the scenario's end time. Throws what
  // prepare_checkpoints throws, RunStopped when the run stopped early, pdes::SimulationError, and what
  // the workload throws.
  pdes::EngineStats run(Workload& workload, const EngineRun& engine_run = {});

 private:
  const boost::mpi::communicator& comm_;
  const models::Scenario& scenario_;
  const RunOptions& options_;
  PhaseMarker phase_;
  std::chrono::steady_clock::time_point start_;
  models::network::Topology topology_;
  RackPlacement placement_;
  std::optional<double> setup_seconds_;
};

}  // namespace rackscale::sim
