// Checkpoints of a device running its program (pdes/checkpoint.hpp). Everything the executor changes
// while it runs is saved; the program's index, the role and the accelerator are the run's and are built
// again by the restarted run. The collective engine's calls in flight are saved by the engine, which on
// restore asks the executor for each call back by its key.
#include <algorithm>
#include <stdexcept>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "models/accelerator/device_executor.hpp"
#include "pdes/checkpoint_containers.hpp"

namespace rackscale::models::accelerator {
namespace {
template <class Archive, class Breakdown>
void serialize_breakdown(Archive& ar, Breakdown& b) {
  ar & b.forward & b.backward & b.recompute & b.optimizer & b.other_compute & b.exposed_communication &
      b.pipeline_bubble & b.idle;
}

template <class Archive, class Cause>
void serialize_cause(Archive& ar, Cause& cause) {
  auto value = static_cast<std::uint8_t>(cause);
  ar & value;
  cause = static_cast<WaitCause>(value);
}
}  // namespace

void DeviceExecutor::save(boost::archive::binary_oarchive& out) const {
  out & iteration_ & remaining_ & compute_busy_ & compute_started_ & compute_idle_since_ & blocker_op_;
  WaitCause blocker = blocker_, origin = blocker_origin_.cause;
  serialize_cause(out, blocker);
  out & blocker_origin_.start;
  serialize_cause(out, origin);
  std::uint64_t streams = streams_.size();
  out & streams;
  for (const StreamState& s : streams_) out & s.next & s.busy;
  std::uint64_t flying = in_flight_.size();
  out & flying;
  for (const auto& [op, flight] : in_flight_) {
    WaitCause cause = flight.cause;
    out & op & flight.start;
    serialize_cause(out, cause);
  }
  point_to_point_.save(out);
  out & fingerprints_;
  TimeBreakdown breakdown = stats_.breakdown;
  serialize_breakdown(out, breakdown);
  out & stats_.iteration_end & stats_.pipeline_bytes & stats_.context_bytes & ops_finished_;
  collectives_->save(out);
}

void DeviceExecutor::load(network::DeviceLp& device, boost::archive::binary_iarchive& in) {
  device_ = &device;
  in & iteration_ & remaining_ & compute_busy_ & compute_started_ & compute_idle_since_ & blocker_op_;
  serialize_cause(in, blocker_);
  in & blocker_origin_.start;
  serialize_cause(in, blocker_origin_.cause);
  std::uint64_t streams = 0;
  in & streams;
  if (streams != index_->streams())
    throw std::invalid_argument(
        fmt::format("device {} was saved running {} streams; its program has {}", device.device(), streams, index_->streams()));
  streams_.assign(streams, {});
  for (StreamState& s : streams_) in & s.next & s.busy;
  std::uint64_t flying = 0;
  in & flying;
  if (flying > streams) throw std::invalid_argument(fmt::format("device {} was saved with {} ops in flight", device.device(), flying));
  in_flight_.assign(flying, {});
  for (auto& [op, flight] : in_flight_) {
    in & op & flight.start;
    serialize_cause(in, flight.cause);
  }
  point_to_point_.load(in);
  in & fingerprints_;
  serialize_breakdown(in, stats_.breakdown);
  in & stats_.iteration_end & stats_.pipeline_bytes & stats_.context_bytes & ops_finished_;
  stats_.iteration_end.reserve(iterations_);
  // A call in flight belongs to the collective op in flight whose key it has (all are of this iteration:
  // an iteration ends only once all its ops have).
  collectives::CollectiveCall resumed;
  collectives_->load(device, in, [this, &device, &resumed](std::uint32_t key) {
    for (const auto& entry : in_flight_) {
      const OpIndex op = entry.first;
      if (op >= index_->program().ops.size() || index_->program().ops[op].kind != OpKind::collective ||
          collective_key_of(op) != key)
        continue;
      resumed = call_of(op, {});
      return collectives::CollectiveEngine::Resumed{&resumed, completion_of(op)};
    }
    throw std::invalid_argument(
        fmt::format("device {} was saved with collective call {}, which no op in flight started", device.device(), key));
  });
}

}  // namespace rackscale::models::accelerator
