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
    : program_(std::move(program)), edges_(&program_->edges()), collectives_(std::move(collectives)) {
  const auto n = static_cast<std::uint32_t>(program_->ops().size());
  // Each record written once (no zeroing pass first): a thousand devices' records are most of the setup.
  ops_.reserve(n);
  const std::span<const ReplayOp> program_ops = program_->ops();
  for (std::uint32_t i = 0; i < n; ++i)
    ops_.push_back({.waiting = edges_->links[i + 1].first_dependency - edges_->links[i].first_dependency,
                    .kind = program_ops[i].kind});
  compute_.busy_time = &stats_.compute;
  host_.busy_time = &stats_.host;
  memory_.busy_time = &stats_.memory;
}

void TraceDevice::start(network::DeviceLp& device) {
  device_ = &device;
  if (program_->ops().empty()) {
    stats_.finished = true;
    return;
  }
  draining_ = true;
  for (std::uint32_t i = 0; i < ops_.size(); ++i)
    if (ops_[i].waiting == 0) release(device, i);
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
  OpState& op = ops_[i];
  op.started = device.time();
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
    ops_[i].started = device.time();
    device.schedule(program_->ops()[i].duration, kOpDone, pdes::to_payload(OpDone{i}));
  }
}

void TraceDevice::start_communication(network::DeviceLp& device, std::uint32_t i) {
  const ReplayOp& op = program_->ops()[i];
  if (communicating_++ == 0) communicating_since_ = device.time();
  switch (op.kind) {
    case ReplayKind::collective: {
      ++stats_.collectives;
      collectives::CollectiveCall call = call_of(op);
      // Two words of capture, which std::function keeps inline: no allocation per call.
      collectives_->start(device, call, [this, i](const collectives::CallRecord&) { complete(*device_, i); });
      members_ = std::move(call.members);  // the engine keeps no reference to the list
      break;
    }
    case ReplayKind::send: {
      ++stats_.sends;
      stats_.bytes_sent += op.bytes;
      // The flow label from the tag, as the training executor's from its match id: an exported program's
      // messages take the paths they took when generated.
      const auto label = static_cast<std::uint32_t>(op.tag & 0xFFFF'FFFFu);
      const ReplayPeer& peer = program_->peer_of(op);
      point_to_point_.send(device, peer.device, op.bytes, label, accelerator::pipeline_tag(peer.match), i);
      break;
    }
    case ReplayKind::recv: {
      ++stats_.receives;
      if (point_to_point_.receive(accelerator::pipeline_tag(program_->peer_of(op).match), i)) complete(device, i);
      break;
    }
    default:
      throw std::logic_error("trace device: a non-communication op started as communication");
  }
}

// The call of collective op `op`, its member list in the kept vector (assigning into its capacity instead
// of allocating one per call).
collectives::CollectiveCall TraceDevice::call_of(const ReplayOp& op) {
  const ReplayGroup& group = program_->groups[op.group];
  collectives::CollectiveCall call;
  call.kind = op.collective;
  call.bytes = op.bytes;
  members_.assign(group.members.begin(), group.members.end());
  call.members = std::move(members_);
  call.rank = group.rank;
  call.key = program_->key_of(op);
  call.fingerprint = group.fingerprint;
  return call;
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
    OpState& op = ops_[i];
    if (Resource* r = resource_of(op.kind)) {
      r->busy = false;
      *r->busy_time += now - op.started;
    } else if (op.kind != ReplayKind::none) {
      communication_ended(now);
    }
    // The longest chain of dependencies ending with op i, and what it offers each dependent.
    op.chain += now - op.started;
    ++op.chain_ops;
    if (op.chain > stats_.critical_path || (op.chain == stats_.critical_path && op.chain_ops > stats_.critical_ops)) {
      stats_.critical_path = op.chain;
      stats_.critical_ops = op.chain_ops;
      critical_op_ = i;
      critical_nodes_stale_ = true;
    }
    op.done = true;
    ++finished_;
    for (const std::uint32_t k : edges_->dependents_of(i)) {
      OpState& next = ops_[k];
      if (op.chain > next.chain || (op.chain == next.chain && op.chain_ops > next.chain_ops) ||
          (op.chain == next.chain && op.chain_ops == next.chain_ops && i < next.predecessor)) {
        next.chain = op.chain;
        next.chain_ops = op.chain_ops;
        next.predecessor = i;
      }
      if (--next.waiting == 0) release(device, k);
    }
  }
  start_resources(device);
  draining_ = false;
  if (finished_ == program_->ops().size() && !stats_.finished) {
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

const TraceDeviceStats& TraceDevice::stats() const {
  if (critical_nodes_stale_) {
    std::uint32_t first = critical_op_;
    while (ops_[first].predecessor != kNone) first = ops_[first].predecessor;
    stats_.critical_first = program_->ops()[first].node;
    stats_.critical_last = program_->ops()[critical_op_].node;
    critical_nodes_stale_ = false;
  }
  return stats_;
}

const ReplayOp* TraceDevice::first_unfinished() const {
  for (std::size_t i = 0; i < ops_.size(); ++i)
    if (!ops_[i].done) return &program_->ops()[i];
  return nullptr;
}

}  // namespace rackscale::models::workload
