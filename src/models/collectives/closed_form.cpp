#include "models/collectives/closed_form.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

#include <algorithm>
#include <utility>

#include "models/network/path.hpp"

namespace rackscale::models::collectives {
namespace {
constexpr std::uint32_t kArrived = 0;
constexpr std::uint32_t kRelease = 1;
}  // namespace

ClosedFormMachine::ClosedFormMachine(std::span<const std::uint32_t> members, std::uint32_t rank,
                                     pdes::SimTime duration, std::uint32_t key, const CallTraffic& traffic,
                                     std::span<const TwinTraffic> twins)
    : leader_(members.front()),
      member_count_(static_cast<std::uint32_t>(members.size())),
      rank_(rank),
      duration_(duration),
      key_(key),
      traffic_(&traffic),
      twins_(twins) {
  if (rank_ == 0) members_.assign(members.begin(), members.end());  // only the leader sends to every member
}

pdes::SimTime ClosedFormMachine::latency_from(network::DeviceLp& device, std::uint32_t from_device) {
  if (from_device == device.device()) return 0;
  return device.latency_from(device.network().topology->devices[from_device]);
}

namespace {
// Charges the messages a member would send in messages mode (closed_form.hpp) from device node `from`.
void charge(network::NetworkContext& net, network::NodeId from, std::uint32_t key, const CallTraffic& traffic) {
  for (const PeerTraffic& t : traffic) {
    if (t.leg != Leg::to_device)
      network::charge_scale_up_cable(*net.topology, net.counters, from, t.leg == Leg::into_switch, t.batches);
    else  // the flow the collective engine gives a channel's messages, so ECMP picks the same paths
      network::charge_route(*net.topology, net.counters, from, net.topology->devices[t.dst_device],
                            (static_cast<std::uint64_t>(key) << 32) | t.channel, t.batches);
  }
}
}  // namespace

void ClosedFormMachine::begin(network::DeviceLp& device, Outbox& out) {
  network::NetworkContext& net = device.network();
  charge(net, device.node(), key_, *std::exchange(traffic_, nullptr));
  for (const TwinTraffic& twin : std::exchange(twins_, {}))
    charge(net, net.topology->devices[twin.src_device], key_, twin.traffic);
  if (rank_ != 0) {
    out.send(device, leader_, 0, 0, kArrived);
    return;
  }
  // A group that spans replicas ends with a member of the last one (in every group kind's rank order, the
  // data-parallel coordinate varies slowest); in a one-replica run that member is not simulated.
  spans_replicas_ = !net.mirror.simulated(members_.back());
  arrive(device, device.device(), device.time());
  release_if_all_here(device, out);
}

void ClosedFormMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) {
  if (index == kRelease) {  // held by the leader until the call's end (release_if_all_here)
    finished_ = true;
    return;
  }
  // The leader hears from a member, which started a path latency ago.
  const pdes::SimTime now = device.time();
  const pdes::SimTime a = latency_from(device, src_device);
  arrive(device, src_device, now >= a ? now - a : 0);
  release_if_all_here(device, out);
}

void ClosedFormMachine::arrive(network::DeviceLp& device, std::uint32_t member, pdes::SimTime start) {
  // The member, and in a one-replica run its twins in a group that spans replicas: they start when it
  // does, and their arrivals reach the leader a path latency later.
  const network::ReplicaMirror& mirror = device.network().mirror;
  const std::uint32_t copies = spans_replicas_ ? mirror.replicas() : 1;
  last_start_ = std::max(last_start_, start);
  for (std::uint32_t r = 0; r < copies; ++r)
    last_arrival_ = std::max(last_arrival_, start + latency_from(device, mirror.twin(member, r)));
  arrivals_ += copies;
}

void ClosedFormMachine::release_if_all_here(network::DeviceLp& device, Outbox& out) {
  if (arrivals_ < member_count_) return;
  // Every member ends at the same time: the last start plus T, or when the release, sent on the last
  // arrival, has reached the farthest member if that is later (a call shorter than its round trip).
  const network::Topology& topology = *device.network().topology;
  pdes::SimTime reach = 0;
  for (std::uint32_t r = 1; r < members_.size(); ++r)
    reach = std::max(reach, device.latency_to(topology.devices[members_[r]]));
  const pdes::SimTime end = std::max(last_start_ + duration_, last_arrival_ + reach);
  const network::ReplicaMirror& mirror = device.network().mirror;
  for (std::uint32_t r = 1; r < members_.size(); ++r)
    if (mirror.simulated(members_[r])) out.signal(device, members_[r], kRelease, end);
  end_at(device, out, end);
}

void ClosedFormMachine::end_at(network::DeviceLp& device, Outbox& out, pdes::SimTime at) {
  if (at <= device.time())
    finished_ = true;
  else
    out.wake_at(device, at);
}

void ClosedFormMachine::wake(network::DeviceLp& /*device*/, Outbox& /*out*/) { finished_ = true; }

// A saved call has begun: its traffic is charged (in the port counters) and not needed again.
void ClosedFormMachine::save(boost::archive::binary_oarchive& out) const {
  out & last_start_ & last_arrival_ & arrivals_ & spans_replicas_ & finished_;
}

void ClosedFormMachine::load(boost::archive::binary_iarchive& in) {
  traffic_ = nullptr;
  twins_ = {};
  in & last_start_ & last_arrival_ & arrivals_ & spans_replicas_ & finished_;
}

}  // namespace rackscale::models::collectives
