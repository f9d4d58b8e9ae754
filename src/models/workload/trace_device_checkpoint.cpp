// Checkpoints of a device replaying a trace (pdes/checkpoint.hpp; docs/traces.md). Between events a
// replay is: per op, the dependencies it still waits for, when it started, its chain and whether it is
// done; per resource, its ready ops and whether it is busy; the communication in flight and the
// figures. The collective engine saves its calls in flight and on restore asks for each back by its key:
// the collective op released and not done whose key it is.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "models/workload/trace_device.hpp"

namespace rackscale::models::workload {
namespace {

template <class Archive, class Stats>
void serialize_stats(Archive& ar, Stats& s) {
  ar & s.compute & s.host & s.memory & s.communication & s.collectives & s.sends & s.receives & s.bytes_sent & s.end &
      s.finished & s.critical_path & s.critical_ops & s.critical_first & s.critical_last;
}

}  // namespace

void TraceDevice::save(boost::archive::binary_oarchive& out) const {
  if (!completed_.empty() || draining_)
    throw std::logic_error(fmt::format("device {}: saved while finishing ops", device_ == nullptr ? 0 : device_->device()));
  // Field by field, each a vector over the ops.
  std::uint64_t ops = ops_.size();
  std::vector<std::uint32_t> waiting, chain_ops, predecessor;
  std::vector<pdes::SimTime> started, chain;
  std::vector<std::uint8_t> done;  // bytes: the archive's encoding of std::vector<bool> depends on Boost's version
  for (const OpState& op : ops_) {
    waiting.push_back(op.waiting);
    started.push_back(op.started);
    chain.push_back(op.chain);
    chain_ops.push_back(op.chain_ops);
    predecessor.push_back(op.predecessor);
    done.push_back(op.done ? 1 : 0);
  }
  out & ops & waiting & started & chain & chain_ops & predecessor;
  out & done;
  for (const Resource* r : {&compute_, &host_, &memory_}) {
    auto ready = r->ready;  // a copy, emptied in order
    std::vector<std::uint32_t> queued;
    while (!ready.empty()) {
      queued.push_back(ready.top());
      ready.pop();
    }
    out & queued & r->busy;
  }
  out & communicating_ & communicating_since_ & finished_;
  TraceDeviceStats stats = this->stats();
  serialize_stats(out, stats);
  point_to_point_.save(out);
  collectives_->save(out);
}

void TraceDevice::load(network::DeviceLp& device, boost::archive::binary_iarchive& in) {
  device_ = &device;
  std::uint64_t ops = 0;
  in & ops;
  if (ops != program_->ops().size())
    throw std::invalid_argument(fmt::format("device {} was saved replaying a trace of {} ops; its trace now has {} "
                                            "(traced rank {})",
                                            device.device(), ops, program_->ops().size(), program_->rank));
  std::vector<std::uint32_t> waiting, chain_ops, predecessor;
  std::vector<pdes::SimTime> started, chain;
  std::vector<std::uint8_t> done;
  in & waiting & started & chain & chain_ops & predecessor;
  in & done;
  if (waiting.size() != ops || started.size() != ops || chain.size() != ops || chain_ops.size() != ops ||
      predecessor.size() != ops || done.size() != ops)
    throw std::invalid_argument(fmt::format("device {}: a saved replay's per-op state is not of its {} ops", device.device(), ops));
  for (std::size_t i = 0; i < ops; ++i) {
    OpState& op = ops_[i];
    op.waiting = waiting[i];
    op.started = started[i];
    op.chain = chain[i];
    op.chain_ops = chain_ops[i];
    if (predecessor[i] != kNone && predecessor[i] >= ops)
      throw std::invalid_argument(fmt::format("device {}: a saved chain's op {} is not of its {} ops", device.device(), predecessor[i], ops));
    op.predecessor = predecessor[i];
    op.done = done[i] != 0;
  }
  for (Resource* r : {&compute_, &host_, &memory_}) {
    std::vector<std::uint32_t> queued;
    in & queued & r->busy;
    r->ready = {};
    for (const std::uint32_t op : queued) {
      if (op >= ops) throw std::invalid_argument(fmt::format("device {}: a saved ready op {} is not of its {} ops", device.device(), op, ops));
      r->ready.push(op);
    }
  }
  in & communicating_ & communicating_since_ & finished_;
  serialize_stats(in, stats_);
  critical_nodes_stale_ = false;  // the saved figures name the critical path's nodes
  point_to_point_.load(in);
  // The engine's calls in flight, each the collective op released (no dependency left) and not done
  // whose key it has; each op once, should two calls in flight share a key (docs/traces.md, "Limits").
  std::vector<bool> resumed(ops, false);
  collectives::CollectiveCall call;
  collectives_->load(device, in, [&](std::uint32_t key) {
    for (std::uint32_t i = 0; i < ops; ++i) {
      const ReplayOp& op = program_->ops()[i];
      if (op.kind != ReplayKind::collective || program_->key_of(op) != key || ops_[i].waiting != 0 || ops_[i].done || resumed[i]) continue;
      resumed[i] = true;
      call = call_of(op);
      return collectives::CollectiveEngine::Resumed{&call, [this, i](const collectives::CallRecord&) { complete(*device_, i); }};
    }
    throw std::invalid_argument(
        fmt::format("device {} was saved with collective call {}, which no collective in flight started", device.device(), key));
  });
}

}  // namespace rackscale::models::workload
