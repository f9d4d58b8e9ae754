#pragma once
// A device replaying one traced rank's TraceProgram (trace_program.hpp). An op starts once every op it
// depends on has finished: compute ops one at a time on the compute units, host ops one at a time on
// the host thread, memory transfers one at a time on the copy engine (each resource taking the ready op
// that comes first in the program), and collectives, sends and receives at once, through the
// collectives model and the network. A send completes when the receiver has the data.
//
// The device accounts for its busy time per resource, the time it had communication in flight, and the
// critical path: the longest chain of dependencies weighted by each op's simulated time (start to end).
#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "models/accelerator/point_to_point.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/network/device_lp.hpp"
#include "models/workload/trace_program.hpp"
#include "pdes/progress.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::workload {

struct TraceDeviceStats {
  pdes::SimTime compute = 0;        // compute units busy
  pdes::SimTime host = 0;           // host thread busy (cpu_ops: serialize)
  pdes::SimTime memory = 0;         // copy engine busy
  pdes::SimTime communication = 0;  // some collective, send or receive in flight
  std::uint64_t collectives = 0, sends = 0, receives = 0;
  std::uint64_t bytes_sent = 0;     // point-to-point payload sent
  pdes::SimTime end = 0;            // when its last op finished
  bool finished = false;
  // The critical path: its length, its ops, its first and last trace node.
  pdes::SimTime critical_path = 0;
  std::uint64_t critical_ops = 0;
  std::uint64_t critical_first = 0, critical_last = 0;
};

class TraceDevice final : public network::DeviceBehaviour {
 public:
  TraceDevice(std::shared_ptr<const TraceProgram> program, std::unique_ptr<collectives::CollectiveEngine> collectives);

  void start(network::DeviceLp& device) override;
  void on_event(network::DeviceLp& device, const pdes::Event& event) override;
  void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) override;

  // Checkpoints (trace_device_checkpoint.cpp): every per-op and per-resource state, the figures, the
  // point-to-point transfers and the collective engine's calls in flight. The program and what the
  // constructor derives from it are the run's and built again by the restarted run.
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(network::DeviceLp& device, boost::archive::binary_iarchive& in) override;

  [[nodiscard]] const TraceDeviceStats& stats() const;
  [[nodiscard]] const TraceProgram& program() const noexcept { return *program_; }
  [[nodiscard]] pdes::WorkDone work() const noexcept { return {finished_, program_->ops().size()}; }
  // The first op (in program order) that has not finished, for a run that ended without it.
  [[nodiscard]] const ReplayOp* first_unfinished() const;

 private:
  // One resource that runs its ready ops one at a time, first in program order first.
  struct Resource {
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    bool busy = false;
    pdes::SimTime* busy_time = nullptr;
  };
  void release(network::DeviceLp& device, std::uint32_t op);
  static constexpr std::uint32_t kNone = 0xFFFF'FFFFu;
  // Op `op` (kNone: none) finished now; handles it and whatever finishes with it.
  void complete(network::DeviceLp& device, std::uint32_t op);
  void start_resources(network::DeviceLp& device);
  void start_communication(network::DeviceLp& device, std::uint32_t op);
  [[nodiscard]] collectives::CollectiveCall call_of(const ReplayOp& op);
  void communication_ended(pdes::SimTime now);
  [[nodiscard]] Resource* resource_of(ReplayKind kind);

  // Everything finishing an op reads or writes of it, in one record per op in program order (a replay
  // interleaves a thousand devices' ops, so an op's record is usually out of cache when it finishes).
  // Finishing an op writes its dependents' records only: their counts, and the longest chain they
  // continue so far (pushed from each finishing dependency), so that no dependency is read again.
  struct OpState {
    pdes::SimTime started = 0;
    // Until the op finishes, the longest chain among its finished dependencies (ties: the dependency
    // first in program order); then the longest chain ending with the op itself.
    pdes::SimTime chain = 0;
    std::uint32_t chain_ops = 0;              // ops on that chain
    std::uint32_t predecessor = kNone;        // the chain's op before this one (kNone: it starts here)
    std::uint32_t waiting = 0;                // dependencies not finished yet
    ReplayKind kind = ReplayKind::none;
    bool done = false;
  };
  static_assert(sizeof(OpState) == 32, "two records per cache line");

  std::shared_ptr<const TraceProgram> program_;
  const ReplayEdges* edges_;  // the program's
  std::unique_ptr<collectives::CollectiveEngine> collectives_;
  network::DeviceLp* device_ = nullptr;
  std::vector<OpState> ops_;
  std::vector<std::uint32_t> members_;    // a collective call's member list, kept between calls
  Resource compute_, host_, memory_;
  std::vector<std::uint32_t> completed_;  // finished ops whose dependents are not released yet
  bool draining_ = false;
  std::uint32_t communicating_ = 0;       // communication ops in flight
  pdes::SimTime communicating_since_ = 0;
  accelerator::PointToPoint point_to_point_;                  // sends and receives in flight
  std::uint64_t finished_ = 0;
  // The figures; the critical path's first and last nodes are resolved from critical_op_ (walking its
  // predecessors) when they are read, not each time the path grows.
  mutable TraceDeviceStats stats_;
  std::uint32_t critical_op_ = kNone;  // the op the critical path ends with
  mutable bool critical_nodes_stale_ = false;
};

}  // namespace rackscale::models::workload
