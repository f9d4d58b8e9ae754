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
                                     pdes::SimTime duration, std::uint32_t key, const CallTraffic& traffic)
    : leader_(members.front()),
      member_count_(static_cast<std::uint32_t>(members.size())),
      rank_(rank),
      duration_(duration),
      key_(key),
      traffic_(&traffic) {
  if (rank_ == 0) members_.assign(members.begin(), members.end());  // only the leader sends to every member
}

pdes::SimTime ClosedFormMachine::latency_from(network::DeviceLp& device, std::uint32_t from_device) {
  return device.latency_from(device.network().topology->devices[from_device]);
}

void ClosedFormMachine::begin(network::DeviceLp& device, Outbox& out) {
  network::NetworkContext& net = device.network();
  // The flow the collective engine gives a channel's messages, so ECMP picks the same paths.
  for (const PeerTraffic& t : *std::exchange(traffic_, nullptr)) {
    if (t.leg != Leg::to_device)
      network::charge_scale_up_cable(*net.topology, net.counters, device.node(), t.leg == Leg::into_switch, t.batches);
    else
      network::charge_route(*net.topology, net.counters, device.node(), net.topology->devices[t.dst_device],
                            (static_cast<std::uint64_t>(key_) << 32) | t.channel, t.batches);
  }
  if (rank_ != 0) {
    out.send(device, leader_, 0, 0, kArrived);
    return;
  }
  last_start_ = std::max(last_start_, device.time());
  ++arrivals_;
  release_if_all_here(device, out);
}

void ClosedFormMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) {
  if (index == kRelease) {  // held by the leader until this member's end (release_if_all_here)
    finished_ = true;
    return;
  }
  // The leader hears from a member.
  const pdes::SimTime now = device.time();
  const pdes::SimTime a = latency_from(device, src_device);
  last_start_ = std::max(last_start_, now >= a ? now - a : 0);
  ++arrivals_;
  release_if_all_here(device, out);
}

void ClosedFormMachine::release_if_all_here(network::DeviceLp& device, Outbox& out) {
  if (arrivals_ < member_count_) return;
  const pdes::SimTime now = device.time();
  const network::Topology& topology = *device.network().topology;
  for (std::uint32_t r = 1; r < members_.size(); ++r) {
    // What the member would work out on receiving the release at R = now + a, a latency a from here:
    // the last start was R - 2a = now - a, so its part ends at max(R, now - a + T). The release is held
    // until then.
    const pdes::SimTime a = device.latency_to(topology.devices[members_[r]]);
    const pdes::SimTime last_start = now >= a ? now - a : 0;
    out.signal(device, members_[r], kRelease, std::max(now + a, last_start + duration_));
  }
  end_at(device, out, std::max(now, last_start_ + duration_));
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
  out & last_start_ & arrivals_ & finished_;
}

void ClosedFormMachine::load(boost::archive::binary_iarchive& in) {
  traffic_ = nullptr;
  in & last_start_ & arrivals_ & finished_;
}

}  // namespace rackscale::models::collectives
