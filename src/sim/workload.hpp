#pragma once
// What a kind of run simulates on the cluster's devices: the one interface a new workload implements
// (docs/sim.md, "How to add a workload"). The Session (sim/session.hpp) does everything a run shares —
// topology, rack placement, engine, network LPs, setup timing, checkpoints, stop handling, the one
// cross-rank reduction — and asks the workload only for what differs:
//
//   1. make_device(d): the behaviour of device d, for each device on this rank (the network LPs around
//      it are the session's);
//   2. work(): how much of its work this rank has done, for the progress line;
//   3. save / load: its per-rank state outside its LPs, for checkpoints;
//   4. record(run, registry): after the run, declares its figures by name with how ranks combine them (sum,
//      minimum, maximum, histogram) and records this rank's values — the session reduces them over
//      ranks in one fixed-order collective, exact for any rank count and partitioner;
//   5. finish(run, figures): derives its report from the reduced figures.
//
// Every rank declares the same figures in the same order in record(), whatever devices it owns.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include <boost/mpi/communicator.hpp>

#include "models/network/device_lp.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/replica_mirror.hpp"
#include "models/network/topology.hpp"
#include "pdes/checkpoint.hpp"
#include "pdes/engine.hpp"
#include "pdes/progress.hpp"
#include "pdes/statistic_registry.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::sim {

// What a finished engine run leaves on this rank, for Workload::finish. The references live as long as
// the call.
struct FinishedRun {
  const boost::mpi::communicator& comm;
  const models::network::Topology& topology;
  std::span<const std::int32_t> rack_rank;         // rack -> rank, the same on every rank
  const pdes::Engine& engine;
  const pdes::EngineStats& engine_stats;           // this rank's
  const models::network::PortCounters& counters;   // this rank's, by port id
};

class Workload {
 public:
  virtual ~Workload() = default;
  Workload() = default;
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // Names the run in checkpoints ("training", "traffic"): a checkpoint restores only a run of its kind.
  [[nodiscard]] virtual std::string_view kind() const = 0;
  // The behaviour of `device`, one of this rank's; called once per local device, in increasing order.
  [[nodiscard]] virtual std::unique_ptr<models::network::DeviceBehaviour> make_device(std::uint32_t device) = 0;
  // Which devices act for others (network/replica_mirror.hpp): a one-replica run's; the identity (every
  // device simulated) by default. make_device is still called for every local device.
  [[nodiscard]] virtual models::network::ReplicaMirror mirror() const { return {}; }
  // This rank's work done and planned (pdes/progress.hpp), read by the progress monitor while running.
  [[nodiscard]] virtual pdes::WorkDone work() const = 0;
  // The rank's state outside its LPs (the session saves its port counters itself).
  virtual void save(pdes::CheckpointWriter& out) = 0;
  virtual void load(pdes::CheckpointReader& in) = 0;
  // After the run: declare every figure and record this rank's values into it.
  virtual void record(const FinishedRun& run, pdes::StatisticRegistry& registry) = 0;
  // Collective, after the reduction: the report from the figures reduced over ranks.
  virtual void finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) = 0;
};

}  // namespace rackscale::sim
