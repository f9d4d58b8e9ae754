#include "models/accelerator/device_executor.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/accelerator/compute_model.hpp"
#include "models/vocabulary/message_tags.hpp"
#include "models/network/network_events.hpp"

namespace rackscale::models::accelerator {
namespace {
// Self-event: an op finished (its record: OpDone).
constexpr pdes::EventKind kOpDone = network::kFirstBehaviourKind;
// kOpDone's record: the op that finished, in the iteration it ran in.
struct OpDone {
  OpIndex op;
  std::uint32_t iteration;
};
// Pipeline tags: bits 38..32 the iteration (pipeline_tag_of); bit 39 is PointToPoint::kAckBit.

// What the compute units' wait for `op` counts as.
WaitCause wait_cause(const Op& op) {
  switch (op.kind) {
    case OpKind::compute:
      return WaitCause::idle;
    case OpKind::collective:
      return WaitCause::exposed_communication;
    case OpKind::send:
    case OpKind::recv:
      break;
  }
  return is_pipeline_peer(op.peer) ? WaitCause::pipeline_bubble : WaitCause::exposed_communication;
}
}  // namespace

ProgramIndex::ProgramIndex(const Program& program, const AcceleratorSpec& accelerator) : program_(&program) {
  const auto n = program.ops.size();
  position_ = std::vector<std::uint32_t>(n, 0);
  compute_time_.assign(n, 0);
  for (OpIndex i = 0; i < n; ++i) {
    // Once per role instead of at each op's start: a model of doubles and a rounding, 5 % of a one-rank
    // GPT-3 iteration when evaluated per op.
    if (program.ops[i].kind == OpKind::compute)
      compute_time_[i] = accelerator::compute_time(accelerator, program.ops[i].cost);
    const std::size_t s = program.ops[i].stream;
    if (s >= stream_ops_.size()) stream_ops_.resize(s + 1);
    position_[i] = static_cast<std::uint32_t>(stream_ops_[s].size());
    stream_ops_[s].push_back(i);
  }
  // Dependents of each op: its explicit dependents and the next op on its stream.
  std::vector<std::vector<OpIndex>> dependents(n);
  for (OpIndex i = 0; i < n; ++i) {
    const Op& op = program.ops[i];
    for (std::uint32_t d = 0; d < op.dependency_count; ++d) dependents[program.dependencies[op.first_dependency + d]].push_back(i);
    const auto& stream = stream_ops_[op.stream];
    if (position_[i] > 0) dependents[stream[position_[i] - 1]].push_back(i);
  }
  const bool few_streams = stream_ops_.size() <= 64;
  const auto bit = [](std::size_t s) { return std::uint64_t{1} << s; };
  streams_to_try_.assign(n, ~std::uint64_t{0});
  for (OpIndex i = 0; i < n; ++i) {
    if (!few_streams || program.ops[i].kind == OpKind::compute) continue;
    std::uint64_t mask = bit(program.ops[i].stream);
    for (const OpIndex j : dependents[i]) mask |= bit(program.ops[j].stream);
    streams_to_try_[i] = mask;
  }
  dependency_positions_.reserve(program.dependencies.size());
  for (const OpIndex d : program.dependencies) {
    if (position_[d] >= StreamPosition::kPositions)
      throw std::length_error(fmt::format("program: op {} is at position {} of its stream, beyond 2^24 - 1", d,
                                          position_[d]));
    dependency_positions_.push_back({program.ops[d].stream, position_[d]});
  }
  dependent_start_.reserve(n + 1);
  dependent_start_.push_back(0);
  for (const auto& list : dependents) {
    dependents_.insert(dependents_.end(), list.begin(), list.end());
    dependent_start_.push_back(static_cast<std::uint32_t>(dependents_.size()));
  }
}

DeviceExecutor::DeviceExecutor(std::shared_ptr<const ProgramIndex> program, std::unique_ptr<DeviceRole> role,
                               std::unique_ptr<collectives::CollectiveEngine> collectives,
                               CollectiveTallies& tallies, std::uint32_t iterations, SpanRecorder& spans)
    : index_(std::move(program)),
      role_(std::move(role)),
      collectives_(std::move(collectives)),
      tallies_(tallies),
      iterations_(iterations),
      spans_(spans) {}

void DeviceExecutor::start(network::DeviceLp& device) {
  device_ = &device;
  stats_.iteration_end.reserve(iterations_);
  if (iterations_ > 0) begin_iteration(device);
}

void DeviceExecutor::begin_iteration(network::DeviceLp& device) {
  const auto n = index_->program().ops.size();
  streams_.assign(index_->streams(), {});
  remaining_ = static_cast<std::uint32_t>(n);
  compute_idle_since_ = device.time();
  blocker_ = WaitCause::idle;
  blocker_op_ = kNoOp;
  if (n == 0) {
    stats_.iteration_end.push_back(device.time());
    if (++iteration_ < iterations_) begin_iteration(device);
    return;
  }
  for (std::size_t s = 0; s < index_->streams(); ++s) try_start(device, s);
}

bool DeviceExecutor::ready(OpIndex i) const {
  for (const ProgramIndex::StreamPosition at : index_->dependency_positions(i))
    if (at.position() >= streams_[at.stream()].finished()) return false;
  return true;
}

void DeviceExecutor::try_start(network::DeviceLp& device, std::size_t s) {
  StreamState& stream = streams_[s];
  if (stream.busy) return;
  const auto& ops = index_->stream_ops(s);
  if (stream.next >= ops.size()) return;
  const OpIndex i = ops[stream.next];
  if (!ready(i)) return;
  if (index_->program().ops[i].kind == OpKind::compute && compute_busy_) return;
  ++stream.next;
  stream.busy = true;
  start_op(device, i);
}

std::uint64_t DeviceExecutor::pipeline_tag_of(const Op& op) const {
  return ((static_cast<std::uint64_t>(iteration_) & 0x7F) << 32) | op.match;
}

std::uint32_t DeviceExecutor::collective_key_of(OpIndex i) const {
  // Members of a tensor, data, context or expert group run the same program, so the op's index (with the
  // iteration) names the call identically on all of them; groups spanning stages use the op's match id.
  const Op& op = index_->program().ops[i];
  const bool same_program = op.group != GroupKind::pipeline && op.group != GroupKind::world;
  const std::uint64_t id = same_program ? i : op.match;
  const std::uint64_t span = same_program ? index_->program().ops.size() : (std::uint64_t{1} << 32);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(iteration_) * span + id) % kCollectiveKeyLimit);
}

collectives::CollectiveCall DeviceExecutor::call_of(OpIndex i, std::vector<std::uint32_t> members) {
  const Op& op = index_->program().ops[i];
  collectives::CollectiveCall call;
  call.kind = op.collective;
  call.algorithm = op.algorithm;
  call.bytes = op.bytes;
  call.members = std::move(members);
  role_->group(op.group, call.members, call.rank);
  std::uint64_t& print = fingerprints_[static_cast<std::size_t>(op.group)];
  if (print == 0) print = collectives::members_fingerprint(call.members);
  call.fingerprint = print;
  call.key = collective_key_of(i);
  return call;
}

collectives::CollectiveEngine::Completion DeviceExecutor::completion_of(OpIndex i) {
  // Two words of capture, which std::function keeps inline: no allocation per call.
  return [this, i](const collectives::CallRecord& record) {
    const Op& done = index_->program().ops[i];
    CollectiveTally& t =
        tallies_.by_group_and_kind[static_cast<std::size_t>(done.group)][static_cast<std::size_t>(done.collective)];
    ++t.calls;
    t.bytes += record.bytes;
    const pdes::SimTime took = record.end - record.start;
    t.time += took;
    t.longest = std::max(t.longest, took);
    finish_soon(*device_, i);
  };
}

void DeviceExecutor::start_op(network::DeviceLp& device, OpIndex i) {
  const Op& op = index_->program().ops[i];
  const pdes::SimTime now = device.time();
  inside_start_ = true;
  switch (op.kind) {
    case OpKind::compute: {
      charge_idle_until(now);
      compute_busy_ = true;
      compute_started_ = now;
      const pdes::SimTime perfect = index_->compute_time(i);
      const pdes::SimTime took =
          variation_.active() ? variation_.duration(perfect, iteration_, i, op.cost.kernels) : perfect;
      device.schedule(took, kOpDone, pdes::to_payload(OpDone{i, iteration_}));
      break;
    }
    case OpKind::collective: {
      in_flight_.push_back({i, {now, blocker_}});
      collectives::CollectiveCall call = call_of(i, std::move(members_));
      collectives_->start(device, call, completion_of(i));
      // The engine keeps no reference to the list. A small one is kept for the next call (the frequent
      // tensor-parallel groups); keeping a data-parallel group's would cost 3 KiB per device at 100k.
      if (call.members.capacity() <= kKeptMembers) members_ = std::move(call.members);
      break;
    }
    case OpKind::send: {
      in_flight_.push_back({i, {now, blocker_}});
      point_to_point_.send(device, role_->peer(op.peer, op), op.bytes, op.match, pipeline_tag(pipeline_tag_of(op)), i);
      (is_pipeline_peer(op.peer) ? stats_.pipeline_bytes : stats_.context_bytes) += op.bytes;
      break;
    }
    case OpKind::recv: {
      in_flight_.push_back({i, {now, blocker_}});
      if (point_to_point_.receive(pipeline_tag(pipeline_tag_of(op)), i)) finish_soon(device, i);
      break;
    }
  }
  inside_start_ = false;
}

// Completions that happen inside start_op (a collective of one member, data that was already here)
// are deferred by a zero-delay self-event, so ops never start recursively from within each other.
void DeviceExecutor::finish_soon(network::DeviceLp& device, OpIndex i) {
  if (inside_start_)
    device.schedule(0, kOpDone, pdes::to_payload(OpDone{i, iteration_}));
  else
    finish_op(device, i);
}

void DeviceExecutor::on_event(network::DeviceLp& device, const pdes::Event& event) {
  if (event.kind == collectives::kCollectiveTimerKind) {
    collectives_->on_timer(device, event);
    return;
  }
  if (event.kind != kOpDone)
    throw std::logic_error(fmt::format("device {}: unexpected event kind {}", device.device(), event.kind));
  finish_op(device, event.as<OpDone>().op);
}

void DeviceExecutor::on_delivery(network::DeviceLp& device, const network::Delivery& delivery) {
  if (const auto op = point_to_point_.on_delivery(device, delivery, *collectives_)) finish_op(device, *op);
}

// The compute units were idle since compute_idle_since_; blame the wait on what just finished. A
// collective that itself had to wait for a pipeline transfer (the backward's first all-gather after the
// gradient arrives) is charged only from its own start; the wait before that goes to what it waited for.
void DeviceExecutor::charge_idle_until(pdes::SimTime now) {
  if (now <= compute_idle_since_) return;
  if (blocker_ == WaitCause::idle) {
    charge_wait(compute_idle_since_, now, WaitCause::idle, kNoOp);
    return;
  }
  const pdes::SimTime own_start = std::clamp(blocker_origin_.start, compute_idle_since_, now);
  charge_wait(compute_idle_since_, own_start, blocker_origin_.cause, kNoOp);
  charge_wait(own_start, now, blocker_, blocker_op_);
}

void DeviceExecutor::charge_wait(pdes::SimTime from, pdes::SimTime to, WaitCause cause, OpIndex blocker) {
  if (to <= from) return;
  const pdes::SimTime wait = to - from;
  switch (cause) {
    case WaitCause::exposed_communication:
      stats_.breakdown.exposed_communication += wait;
      break;
    case WaitCause::pipeline_bubble:
      stats_.breakdown.pipeline_bubble += wait;
      break;
    case WaitCause::idle:
      stats_.breakdown.idle += wait;
      break;
  }
  spans_.wait(cause, blocker, iteration_, from, to);
}

void DeviceExecutor::finish_op(network::DeviceLp& device, OpIndex i) {
  const Op& op = index_->program().ops[i];
  const pdes::SimTime now = device.time();
  --remaining_;
  ++ops_finished_;
  streams_[op.stream].busy = false;  // ops of a stream finish in its order: op i was the one running
  if (op.kind == OpKind::compute) {
    compute_busy_ = false;
    compute_idle_since_ = now;
    const pdes::SimTime took = now - compute_started_;
    spans_.op(i, iteration_, compute_started_, now);
    TimeBreakdown& b = stats_.breakdown;
    switch (op.phase) {
      case Phase::forward: b.forward += took; break;
      case Phase::backward: b.backward += took; break;
      case Phase::recompute: b.recompute += took; break;
      case Phase::optimizer: b.optimizer += took; break;
      case Phase::other: b.other_compute += took; break;
    }
  }
  blocker_ = wait_cause(op);
  blocker_op_ = i;
  if (op.kind != OpKind::compute) {
    const auto it = std::find_if(in_flight_.begin(), in_flight_.end(), [i](const auto& e) { return e.first == i; });
    blocker_origin_ = it != in_flight_.end() ? it->second : InFlight{now, WaitCause::idle};
    if (it != in_flight_.end()) in_flight_.erase(it);
    spans_.op(i, iteration_, blocker_origin_.start, now);
  }
  if (remaining_ == 0) {
    // The compute units waited for whatever finished last (typically the data-parallel reduction).
    charge_idle_until(now);
    stats_.iteration_end.push_back(now);
    if (++iteration_ < iterations_) begin_iteration(device);
    return;
  }
  // In stream order, as a loop over every stream would; the others can start nothing new.
  const std::uint64_t mask = index_->streams_to_try(i);
  for (std::size_t s = 0; s < index_->streams(); ++s)
    if (s >= 64 || (mask >> s & 1) != 0) try_start(device, s);
}

}  // namespace rackscale::models::accelerator
