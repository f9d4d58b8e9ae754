#pragma once
// The accelerator model: a device running its program (models/vocabulary/program.hpp) iteration
// after iteration. Compute ops take the compute model's time on the device's compute units (one at a
// time); collectives go through the collectives model; pipeline sends and receives are messages
// between the neighbouring stages, or around the context-parallel ring (a send completes when the
// receiver has the data).
//
// The device also accounts for its time, from the compute units' point of view: busy computing (by
// phase), or idle because the next compute op waits for a collective or a context-ring transfer
// (exposed communication), for a pipeline transfer (pipeline bubble), or for nothing the program can
// name (idle).
#include <cstdint>
#include <memory>
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "models/accelerator/compute_variability.hpp"
#include "models/accelerator/device_role.hpp"
#include "models/vocabulary/program.hpp"
#include "models/accelerator/span_recorder.hpp"
#include "models/accelerator/point_to_point.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/hardware.hpp"
#include "models/network/device_lp.hpp"
#include "pdes/progress.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::accelerator {

// A program's structure and its compute ops' times on the accelerator, derived once and shared by
// every device that runs it.
class ProgramIndex {
 public:
  ProgramIndex(const Program& program, const AcceleratorSpec& accelerator);
  [[nodiscard]] const Program& program() const noexcept { return *program_; }
  [[nodiscard]] std::size_t streams() const noexcept { return stream_ops_.size(); }
  // The ops of stream s in program order.
  [[nodiscard]] const std::vector<OpIndex>& stream_ops(std::size_t s) const { return stream_ops_[s]; }
  // Ops that depend on op i (including the next op on its stream).
  [[nodiscard]] std::span<const OpIndex> dependents(OpIndex i) const {
    return {dependents_.data() + dependent_start_[i], dependent_start_[i + 1] - dependent_start_[i]};
  }
  [[nodiscard]] std::uint32_t position_in_stream(OpIndex i) const { return position_[i]; }
  // Compute op i's time on the accelerator without variability (compute_time of its cost).
  [[nodiscard]] pdes::SimTime compute_time(OpIndex i) const { return compute_time_[i]; }
  // Where op i's dependencies sit: each one's stream and position in it, in Program::dependencies
  // order. A stream runs its ops one at a time in order, so "dependency done" is "its position is below
  // its stream's count of finished ops": a device needs no per-op state, and checking readiness reads
  // this shared array instead of a per-device bit per op (a cache miss per check on a large cluster).
  class StreamPosition {
   public:
    static constexpr std::uint32_t kPositions = 1u << 24;
    StreamPosition(std::uint8_t stream, std::uint32_t position) noexcept
        : packed_(static_cast<std::uint32_t>(stream) << 24 | position) {}
    [[nodiscard]] std::uint32_t stream() const noexcept { return packed_ >> 24; }
    [[nodiscard]] std::uint32_t position() const noexcept { return packed_ & (kPositions - 1); }

   private:
    std::uint32_t packed_;
  };
  // The streams whose next op may start once op i finishes, as bits: its own (now free), its dependents'
  // and, when i is a compute op (the compute units are free again), every stream. Streams beyond 64
  // make every mask all ones.
  [[nodiscard]] std::uint64_t streams_to_try(OpIndex i) const { return streams_to_try_[i]; }
  [[nodiscard]] std::span<const StreamPosition> dependency_positions(OpIndex i) const {
    const Op& op = program_->ops[i];
    return {dependency_positions_.data() + op.first_dependency, op.dependency_count};
  }

 private:
  const Program* program_;
  std::vector<std::vector<OpIndex>> stream_ops_;
  std::vector<std::uint32_t> position_;
  std::vector<pdes::SimTime> compute_time_;  // per op; 0 for the ops that are not compute
  std::vector<std::uint32_t> dependent_start_;
  std::vector<OpIndex> dependents_;
  std::vector<StreamPosition> dependency_positions_;  // parallel to Program::dependencies
  std::vector<std::uint64_t> streams_to_try_;         // per op
};

// Where a device's time went over the iterations it ran (ps).
struct TimeBreakdown {
  pdes::SimTime forward = 0, backward = 0, recompute = 0, optimizer = 0, other_compute = 0;
  pdes::SimTime exposed_communication = 0;  // compute idle, waiting for a collective or a context-ring transfer
  pdes::SimTime pipeline_bubble = 0;        // compute idle, waiting for a pipeline transfer
  pdes::SimTime idle = 0;                   // compute idle for no program reason (e.g. at the start)
  [[nodiscard]] pdes::SimTime compute() const noexcept { return forward + backward + recompute + optimizer + other_compute; }
  [[nodiscard]] pdes::SimTime total() const noexcept {
    return compute() + exposed_communication + pipeline_bubble + idle;
  }
};

// Per kind of collective on a group (e.g. all-reduce on the tensor group).
struct CollectiveTally {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
  pdes::SimTime time = 0;      // summed over calls (end - start at this device)
  pdes::SimTime longest = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & calls & bytes & time & longest;
  }
};

struct DeviceStats {
  TimeBreakdown breakdown;
  std::vector<pdes::SimTime> iteration_end;  // when this device finished each iteration
  std::uint64_t pipeline_bytes = 0;          // sent to pipeline neighbours
  std::uint64_t context_bytes = 0;           // sent to context-ring neighbours (ring attention)
};

// Shared by the executors of one rank: collective statistics by [group kind][collective kind]. Integer
// sums, so ranks' tallies add up exactly.
struct CollectiveTallies {
  std::array<std::array<CollectiveTally, 5>, 7> by_group_and_kind{};

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    for (auto& row : by_group_and_kind)
      for (CollectiveTally& tally : row) ar & tally;
  }
};

class DeviceExecutor final : public network::DeviceBehaviour {
 public:
  DeviceExecutor(std::shared_ptr<const ProgramIndex> program, std::unique_ptr<DeviceRole> role,
                 std::unique_ptr<collectives::CollectiveEngine> collectives, CollectiveTallies& tallies,
                 std::uint32_t iterations, SpanRecorder& spans = ignored_spans());

  void start(network::DeviceLp& device) override;
  void on_event(network::DeviceLp& device, const pdes::Event& event) override;
  void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) override;
  // Checkpoints (device_executor_checkpoint.cpp): the iteration's progress, what waits, the statistics
  // and the collective engine's calls in flight. What the program and role derive is not saved.
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(network::DeviceLp& device, boost::archive::binary_iarchive& in) override;

  // Stretches and jitters this device's compute ops (compute_variability.hpp); none by default. Derived
  // from the scenario, so a checkpoint does not save it: set it again before a restart's load.
  void set_variation(const ComputeVariation& variation) noexcept { variation_ = variation; }
  [[nodiscard]] const ComputeVariation& variation() const noexcept { return variation_; }

  [[nodiscard]] const DeviceStats& stats() const noexcept { return stats_; }
  // Ops finished over all iterations, out of iterations x ops per iteration: how far this device is,
  // for progress reports.
  [[nodiscard]] pdes::WorkDone work() const noexcept {
    return {ops_finished_, static_cast<std::uint64_t>(iterations_) * index_->program().ops.size()};
  }

 private:
  void begin_iteration(network::DeviceLp& device);
  void try_start(network::DeviceLp& device, std::size_t stream);
  void start_op(network::DeviceLp& device, OpIndex op);
  void finish_op(network::DeviceLp& device, OpIndex op);
  void finish_soon(network::DeviceLp& device, OpIndex op);
  [[nodiscard]] bool ready(OpIndex op) const;
  [[nodiscard]] std::uint64_t pipeline_tag_of(const Op& op) const;
  [[nodiscard]] std::uint32_t collective_key_of(OpIndex op) const;
  // The call of collective op `op` in this iteration, its member list filled into `members`.
  [[nodiscard]] collectives::CollectiveCall call_of(OpIndex op, std::vector<std::uint32_t> members);
  // Where the call of op `op` reports its end.
  [[nodiscard]] collectives::CollectiveEngine::Completion completion_of(OpIndex op);

  std::shared_ptr<const ProgramIndex> index_;
  std::unique_ptr<DeviceRole> role_;
  std::unique_ptr<collectives::CollectiveEngine> collectives_;
  network::DeviceLp* device_ = nullptr;  // the device this runs on (set by start)
  CollectiveTallies& tallies_;
  std::uint32_t iterations_;
  std::uint32_t iteration_ = 0;

  // Per stream, this iteration; all of a device's streams in one or two cache lines.
  struct StreamState {
    std::uint32_t next = 0;  // position of the next op to start
    bool busy = false;       // an op of it is running (the one before `next`)
    [[nodiscard]] std::uint32_t finished() const noexcept { return next - (busy ? 1 : 0); }
  };
  std::vector<StreamState> streams_;
  std::uint32_t remaining_ = 0;               // ops of this iteration not done yet
  bool compute_busy_ = false;
  pdes::SimTime compute_started_ = 0;
  pdes::SimTime compute_idle_since_ = 0;
  // What a wait for the op whose completion is being handled counts as (idle: it was a compute op), and
  // that op.
  WaitCause blocker_ = WaitCause::idle;
  OpIndex blocker_op_ = kNoOp;
  // A communication op in flight: when it started and what it had waited for (the blocker then), so a
  // compute op waiting on it can split its wait into the op's own time and what the op waited for.
  struct InFlight {
    pdes::SimTime start = 0;
    WaitCause cause = WaitCause::idle;
  };
  // At most one op per stream is in flight, so a short vector searched from the front beats a hash map
  // (which allocated a node per op).
  std::vector<std::pair<OpIndex, InFlight>> in_flight_;
  InFlight blocker_origin_;                   // InFlight of the blocker, when it was a communication op
  void charge_wait(pdes::SimTime from, pdes::SimTime to, WaitCause cause, OpIndex blocker);
  // The compute units, idle since compute_idle_since_, are busy again (or the iteration ends) at `now`,
  // after the blocker finished: charge the wait (and report it to the span recorder).
  void charge_idle_until(pdes::SimTime now);
  bool inside_start_ = false;                 // a completion now would re-enter start_op
  PointToPoint point_to_point_;               // pipeline and context-ring transfers in flight
  // A collective call's member list, kept between calls of at most kKeptMembers members so that filling
  // it allocates nothing.
  static constexpr std::size_t kKeptMembers = 64;
  // Each group kind's member fingerprint (collectives::members_fingerprint), once known; a role's
  // groups do not change (device_role.hpp).
  std::array<std::uint64_t, kGroupKinds> fingerprints_{};
  std::vector<std::uint32_t> members_;
  DeviceStats stats_;
  SpanRecorder& spans_;
  ComputeVariation variation_;
  std::uint64_t ops_finished_ = 0;            // over all iterations
};

}  // namespace rackscale::models::accelerator
