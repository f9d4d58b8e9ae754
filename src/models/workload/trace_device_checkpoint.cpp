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
  std::uint64_t ops = program_->ops.size();
  out & ops & waiting_ & started_ & chain_ & chain_ops_ & chain_first_;
  // std::vector<bool> as bytes: the archive's own encoding of it depends on the Boost version's headers.
  std::vector<std::uint8_t> done(done_.begin(), done_.end());
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
  TraceDeviceStats stats = stats_;
  serialize_stats(out, stats);
  point_to_point_.save(out);
  collectives_->save(out);
}

void TraceDevice::load(network::DeviceLp& device, boost::archive::binary_iarchive& in) {
  device_ = &device;
  std::uint64_t ops = 0;
  in & ops;
  if (ops != program_->ops.size())
    throw std::invalid_argument(fmt::format("device {} was saved replaying a trace of {} ops; its trace now has {} "
                                            "(traced rank {})",
                                            device.device(), ops, program_->ops.size(), program_->rank));
  in & waiting_ & started_ & chain_ & chain_ops_ & chain_first_;
  std::vector<std::uint8_t> done;
  in & done;
  if (waiting_.size() != ops || started_.size() != ops || chain_.size() != ops || chain_ops_.size() != ops ||
      chain_first_.size() != ops || done.size() != ops)
    throw std::invalid_argument(fmt::format("device {}: a saved replay's per-op state is not of its {} ops", device.device(), ops));
  done_.assign(done.begin(), done.end());
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
  point_to_point_.load(in);
  // The engine's calls in flight, each the collective op released (no dependency left) and not done
  // whose key it has; each op once, should two calls in flight share a key (docs/traces.md, "Limits").
  std::vector<bool> resumed(ops, false);
  collectives::CollectiveCall call;
  collectives_->load(device, in, [&](std::uint32_t key) {
    for (std::uint32_t i = 0; i < ops; ++i) {
      const ReplayOp& op = program_->ops[i];
      if (op.kind != ReplayKind::collective || op.key != key || waiting_[i] != 0 || done_[i] || resumed[i]) continue;
      resumed[i] = true;
      const ReplayGroup& group = program_->groups[op.group];
      call = {};
      call.kind = op.collective;
      call.bytes = op.bytes;
      call.members = group.members;
      call.rank = group.rank;
      call.key = op.key;
      return collectives::CollectiveEngine::Resumed{&call, [this, i](const collectives::CallRecord&) { complete(*device_, i); }};
    }
    throw std::invalid_argument(
        fmt::format("device {} was saved with collective call {}, which no collective in flight started", device.device(), key));
  });
}

}  // namespace rackscale::models::workload
