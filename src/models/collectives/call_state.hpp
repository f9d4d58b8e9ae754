#pragma once
// One member's part of one collective call, as a state machine: it sends its first messages when it
// begins and advances on each delivery. Implementations: StepMachine (ring, chain broadcast,
// halving-doubling, hierarchical, all-to-all) and TreeMachine (double binary tree).
#include <cstdint>
#include <vector>

#include "models/network/device_lp.hpp"

namespace boost::archive {
class binary_oarchive;
class binary_iarchive;
}  // namespace boost::archive

namespace rackscale::models::collectives {

inline constexpr std::uint32_t kNoPeer = 0xFFFF'FFFFu;

// Where a call state's messages go: the engine, which tags them with the call's key and, in analytical
// fidelity, paces them.
class Outbox {
 public:
  virtual ~Outbox() = default;
  // `index` < 2^20 identifies the message within the call (the receiver decodes it); `channel` picks
  // the flow, so ECMP spreads a call's channels over paths.
  virtual void send(network::DeviceLp& device, std::uint32_t dst_device, std::uint64_t bytes, std::uint32_t channel,
                    std::uint32_t index) = 0;
  // NVLink SHARP (network/switch_multimem.hpp), same `index` rules: a contribution to the in-switch
  // reduction `index` whose sum goes to `owner_device` once `contributors` members have contributed; a
  // multicast of `bytes` to every device of `group`.
  virtual void reduce_in_switch(network::DeviceLp& device, std::uint32_t owner_device, std::uint32_t contributors,
                                std::uint64_t bytes, std::uint32_t index) = 0;
  virtual void multicast(network::DeviceLp& device, const network::MulticastGroup& group, std::uint64_t bytes,
                         std::uint32_t index) = 0;
  // A zero-byte message that `dst_device` receives at `not_before`, or on its arrival if that is later
  // (network::DeviceLp::send_signal); same `index` rules.
  virtual void signal(network::DeviceLp& device, std::uint32_t dst_device, std::uint32_t index,
                      pdes::SimTime not_before) = 0;
  // Calls the state's wake() at simulated time `at` (>= now).
  virtual void wake_at(network::DeviceLp& device, pdes::SimTime at) = 0;
};

// Where a call's messages go: to another device along the router's path, or over one scale-up cable
// only, into the member's switch (NVLS reductions and multicasts) or out of it to the member (their
// results).
enum class Leg : std::uint8_t { to_device, into_switch, out_of_switch };

// `count` messages of `bytes` each from this member to `dst_device` on `channel`: a summary of the
// traffic a call state sends over the whole call (CallState::list_sends). NVLS legs (dst_device is the
// member itself) cover what the member sends into its switch and what its switch sends it.
struct SentMessages {
  std::uint32_t dst_device = kNoPeer;
  std::uint32_t channel = 0;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  Leg leg = Leg::to_device;
};

class CallState {
 public:
  virtual ~CallState() = default;
  CallState() = default;
  CallState(const CallState&) = delete;
  CallState& operator=(const CallState&) = delete;

  virtual void begin(network::DeviceLp& device, Outbox& out) = 0;
  virtual void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) = 0;
  // A wake-up the state asked for with Outbox::wake_at.
  virtual void wake(network::DeviceLp& /*device*/, Outbox& /*out*/) {}
  // Every expected message has arrived and every message of this member has been sent.
  [[nodiscard]] virtual bool finished() const = 0;
  // Appends every message this member sends over the whole call, whatever the order of arrivals (a
  // closed-form call charges them to the ports their routes cross, closed_form.hpp). Nothing by default.
  virtual void list_sends(std::vector<SentMessages>& /*out*/) const {}
  // Checkpoints (pdes/checkpoint.hpp): what has changed since the constructor. A restored call is built
  // again from its CollectiveCall, the way it was first (the plan is a function of the call), and
  // load() puts its progress back; it is not begun again.
  virtual void save(boost::archive::binary_oarchive& out) const = 0;
  virtual void load(boost::archive::binary_iarchive& in) = 0;
};

// Appends `parts` nearly equal parts of `total` bytes (split()) to `dst_device`: at most two entries.
void append_parts(std::vector<SentMessages>& out, std::uint32_t dst_device, std::uint32_t channel, std::uint64_t total,
                  std::uint64_t parts, Leg leg = Leg::to_device);

// `total` bytes cut into `parts` nearly equal parts (the first total % parts one byte larger): part `i`.
[[nodiscard]] constexpr std::uint64_t split(std::uint64_t total, std::uint64_t parts, std::uint64_t i) noexcept {
  return total / parts + (i < total % parts ? 1 : 0);
}

}  // namespace rackscale::models::collectives
