#include "models/workload/trace_device.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"
#include "models/network/network_events.hpp"

namespace rackscale::models::workload {
namespace {
// Self-event: the op of a resource finished (its record: OpDone).
constexpr pdes::EventKind kOpDone = network::kFirstBehaviourKind;
struct OpDone {
  std::uint32_t op;
};
}  // namespace

TraceDevice::TraceDevice(std::shared_ptr<const TraceProgram> program,
                         std::unique_ptr<collectives::CollectiveEngine> collectives)
    : program_(std::move(program)), collectives_(std::move(collectives)) {
  const auto n = program_->ops.size();
  std::vector<std::uint32_t> counts(n + 1, 0);
  for (const std::uint32_t d : program_->dependencies) ++counts[d + 1];
  for (std::size_t i = 0; i < n; ++i) counts[i + 1] += counts[i];
  dependent_start_ = counts;
  dependents_.resize(program_->dependencies.size());
  waiting_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const ReplayOp& op = program_->ops[i];
    waiting_[i] = op.dependency_count;
    for (std::uint32_t k = 0; k < op.dependency_count; ++k)
      dependents_[counts[program_->dependencies[op.first_dependency + k]]++] = i;
  }
  started_.assign(n, 0);
  chain_.assign(n, 0);
  chain_ops_.assign(n, 0);
  chain_first_.assign(n, 0);
  done_.assign(n, false);
  compute_.busy_time = &stats_.compute;
  host_.busy_time = &stats_.host;
  memory_.busy_time = &stats_.memory;
}

void TraceDevice::start(network::DeviceLp& device) {
  device_ = &device;
  if (program_->ops.empty()) {
    stats_.finished = true;
    return;
  }
  draining_ = true;
  for (std::uint32_t i = 0; i < program_->ops.size(); ++i)
    if (waiting_[i] == 0) release(device, i);
  draining_ = false;
  complete(device, kNone);
}

TraceDevice::Resource* TraceDevice::resource_of(ReplayKind kind) {
  switch (kind) {
    case ReplayKind::compute: return &compute_;
    case ReplayKind::host: return &host_;
    case ReplayKind::memory: return &memory_;
    default: return nullptr;
  }
}

void TraceDevice::release(network::DeviceLp& device, std::uint32_t i) {
  const ReplayOp& op = program_->ops[i];
  started_[i] = device.time();
  if (op.kind == ReplayKind::none) {
    completed_.push_back(i);
  } else if (Resource* r = resource_of(op.kind)) {
    r->ready.push(i);
  } else {
    start_communication(device, i);
  }
}

void TraceDevice::start_resources(network::DeviceLp& device) {
  for (Resource* r : {&compute_, &host_, &memory_}) {
    if (r->busy || r->ready.empty()) continue;
    const std::uint32_t i = r->ready.top();
    r->ready.pop();
    r->busy = true;
    started_[i] = device.time();
    device.schedule(program_->ops[i].duration, kOpDone, pdes::to_payload(OpDone{i}));
  }
}

void TraceDevice::start_communication(network::DeviceLp& device, std::uint32_t i) {
  const ReplayOp& op = program_->ops[i];
  if (communicating_++ == 0) communicating_since_ = device.time();
  switch (op.kind) {
    case ReplayKind::collective: {
      ++stats_.collectives;
      const ReplayGroup& group = program_->groups[op.group];
      collectives::CollectiveCall call;
      call.kind = op.collective;
      call.bytes = op.bytes;
      call.members = group.members;
      call.rank = group.rank;
      call.key = op.key;
      collectives_->start(device, call, [this, i](const collectives::CallRecord&) { complete(*device_, i); });
      break;
    }
    case ReplayKind::send: {
      ++stats_.sends;
      stats_.bytes_sent += op.bytes;
      // The flow from the tag, as the training executor's from its match id: an exported program's
      // messages take the paths they took when generated.
      const std::uint64_t flow =
          (static_cast<std::uint64_t>(device.device()) << 32) | (static_cast<std::uint64_t>(op.tag) & 0xFFFF'FFFFu);
      point_to_point_.send(device, op.peer_device, op.bytes, flow, accelerator::pipeline_tag(op.match), i);
      break;
    }
    case ReplayKind::recv: {
      ++stats_.receives;
      if (point_to_point_.receive(accelerator::pipeline_tag(op.match), i)) complete(device, i);
      break;
    }
    default:
      throw std::logic_error("trace device: a non-communication op started as communication");
  }
}

void TraceDevice::communication_ended(pdes::SimTime now) {
  if (--communicating_ == 0) stats_.communication += now - communicating_since_;
}

// Finishing an op releases its dependents, which may finish at once (ops of no time, a collective of
// one member, data already in): a worklist, so that ops never start recursively inside each other.
void TraceDevice::complete(network::DeviceLp& device, std::uint32_t first) {
  if (first != kNone) completed_.push_back(first);
  if (draining_) return;
  draining_ = true;
  const pdes::SimTime now = device.time();
  while (!completed_.empty()) {
    const std::uint32_t i = completed_.back();
    completed_.pop_back();
    const ReplayOp& op = program_->ops[i];
    if (Resource* r = resource_of(op.kind)) {
      r->busy = false;
      *r->busy_time += now - started_[i];
    } else if (op.kind != ReplayKind::none) {
      communication_ended(now);
    }
    // The longest chain of dependencies ending with op i.
    pdes::SimTime before = 0;
    std::uint32_t ops = 0, first_op = i;
    for (std::uint32_t k = 0; k < op.dependency_count; ++k) {
      const std::uint32_t d = program_->dependencies[op.first_dependency + k];
      if (chain_[d] > before || (chain_[d] == before && chain_ops_[d] > ops)) {
        before = chain_[d];
        ops = chain_ops_[d];
        first_op = chain_first_[d];
      }
    }
    chain_[i] = before + (now - started_[i]);
    chain_ops_[i] = ops + 1;
    chain_first_[i] = first_op;
    if (chain_[i] > stats_.critical_path || (chain_[i] == stats_.critical_path && chain_ops_[i] > stats_.critical_ops)) {
      stats_.critical_path = chain_[i];
      stats_.critical_ops = chain_ops_[i];
      stats_.critical_first = program_->ops[first_op].node;
      stats_.critical_last = op.node;
    }
    done_[i] = true;
    ++finished_;
    for (std::uint32_t k = dependent_start_[i]; k < dependent_start_[i + 1]; ++k)
      if (--waiting_[dependents_[k]] == 0) release(device, dependents_[k]);
  }
  start_resources(device);
  draining_ = false;
  if (finished_ == program_->ops.size() && !stats_.finished) {
    stats_.finished = true;
    stats_.end = now;
  }
}

void TraceDevice::on_event(network::DeviceLp& device, const pdes::Event& event) {
  if (event.kind == collectives::kCollectiveTimerKind) {
    collectives_->on_timer(device, event);
    return;
  }
  if (event.kind != kOpDone)
    throw std::logic_error(fmt::format("device {}: unexpected event kind {}", device.device(), event.kind));
  complete(device, event.as<OpDone>().op);
}

void TraceDevice::on_delivery(network::DeviceLp& device, const network::Delivery& delivery) {
  if (const auto op = point_to_point_.on_delivery(device, delivery, *collectives_)) complete(device, *op);
}

const ReplayOp* TraceDevice::first_unfinished() const {
  for (std::size_t i = 0; i < done_.size(); ++i)
    if (!done_[i]) return &program_->ops[i];
  return nullptr;
}

}  // namespace rackscale::models::workload
