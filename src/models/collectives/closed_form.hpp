#pragma once
// A collective whose time comes from a formula instead of from its messages: NCCL's own cost model
// (cost_model.hpp) for the call's algorithm, over the fabric the call spans. Where the network could not
// add contention to a call anyway (analytical fidelity; a call inside one non-blocking scale-up domain)
// this gives the same kind of answer as the decomposition at a tiny fraction of the events: a TP
// all-reduce of 8 devices is 14 small messages instead of about 1,400.
//
// The members only synchronize: each sends a zero-byte "arrived" message to the leader (rank 0); once
// all have arrived, the leader sends each a zero-byte "release". The call ends for every member at the
// same time: the last member's start + T, or, for a call shorter than its round trip, when the release,
// sent on the last arrival, reaches the member farthest from the leader. The leader knows each start
// exactly (arrival minus that member's path latency). Since the end is known to the leader, it sends
// the release as a signal held until then (DeviceLp::send_signal): the member takes it in when the call
// ends, so the call costs a member two events (its arrival at the leader, its release) rather than
// three (a release followed by a timer). One end for all keeps members that are alike in step: in a
// one-replica run (network/replica_mirror.hpp) the leader counts the twins of each simulated member in
// another replica as arriving when it does, a path latency later, and releases only simulated members.

// The data still loads the links, for link utilization and energy: when it begins, a member charges the
// messages it would send in messages mode (CallState::list_sends of the algorithm's machine, with the
// same flows, hence the same ECMP paths) to the ports of their routes, as the analytical fabric records
// a message it carries. Bytes per port equal the messages mode's; busy time is the same serialization
// time, without queueing. NVLS traffic loads one scale-up cable per leg: a member charges what it sends
// into its switch and what the switch sends it.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "models/collectives/call_state.hpp"
#include "models/network/path.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::collectives {

// What one member sends to one peer on one channel over a whole call: the messages that share a route
// (for NVLS legs, one scale-up cable: call_state.hpp).
struct PeerTraffic {
  std::uint32_t dst_device = 0;
  std::uint32_t channel = 0;
  std::vector<network::MessageBatch> batches;  // by message size
  Leg leg = Leg::to_device;
};
using CallTraffic = std::vector<PeerTraffic>;
// What a simulated member's twin in another replica sends over the call (one-replica runs).
struct TwinTraffic {
  std::uint32_t src_device = 0;
  CallTraffic traffic;
};

class ClosedFormMachine final : public CallState {
 public:
  // `traffic` and `twins` (what this member's twins send, in a one-replica run) are read only by begin(),
  // which the engine calls at once; they need not outlive that (a shared_ptr per call cost two atomic
  // operations, a measurable share of a 16,384-device run).
  ClosedFormMachine(std::span<const std::uint32_t> members, std::uint32_t rank, pdes::SimTime duration,
                    std::uint32_t key, const CallTraffic& traffic, std::span<const TwinTraffic> twins = {});
  void begin(network::DeviceLp& device, Outbox& out) override;
  void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) override;
  void wake(network::DeviceLp& device, Outbox& out) override;
  [[nodiscard]] bool finished() const override { return finished_; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;

 private:
  void end_at(network::DeviceLp& device, Outbox& out, pdes::SimTime at);
  // The leader: `member` (and its twins, when the call spans replicas) started at `start`.
  void arrive(network::DeviceLp& device, std::uint32_t member, pdes::SimTime start);
  void release_if_all_here(network::DeviceLp& device, Outbox& out);
  // The path latency from `from_device` to the device handling an event.
  [[nodiscard]] static pdes::SimTime latency_from(network::DeviceLp& device, std::uint32_t from_device);
  std::uint32_t leader_;
  std::uint32_t member_count_;
  std::vector<std::uint32_t> members_;  // the leader's only
  std::uint32_t rank_;
  pdes::SimTime duration_;
  std::uint32_t key_;
  const CallTraffic* traffic_;  // until begin()
  std::span<const TwinTraffic> twins_;  // until begin()
  pdes::SimTime last_start_ = 0;
  pdes::SimTime last_arrival_ = 0;  // leader: when the last arrival reaches it
  std::uint32_t arrivals_ = 0;      // leader: members that have arrived (itself included once begun)
  bool spans_replicas_ = false;     // leader: the members span replicas of a one-replica run
  bool finished_ = false;
};

}  // namespace rackscale::models::collectives
