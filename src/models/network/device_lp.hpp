#pragma once
// A device (accelerator) as a network endpoint: it sends messages through its ports, learns when the
// messages addressed to it are in, and hands complete messages to its behaviour (a traffic generator now, an
// accelerator program later). In a torus, devices also forward chunks for others.
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "models/network/message.hpp"
#include "models/network/network_node_lp.hpp"
#include "models/network/switch_multimem.hpp"

namespace rackscale::models::network {

class DeviceLp;

// What a device does. Its events use kinds >= kFirstBehaviourKind.
class DeviceBehaviour {
 public:
  virtual ~DeviceBehaviour() = default;
  DeviceBehaviour() = default;
  DeviceBehaviour(const DeviceBehaviour&) = delete;
  DeviceBehaviour& operator=(const DeviceBehaviour&) = delete;

  virtual void start(DeviceLp& /*device*/) {}
  virtual void on_event(DeviceLp& /*device*/, const pdes::Event& /*event*/) {}
  // A message addressed to this device has fully arrived (now).
  virtual void on_delivery(DeviceLp& /*device*/, const Delivery& /*delivery*/) {}
  virtual void finish(DeviceLp& /*device*/) {}
  // Checkpoints (pdes::LogicalProcess::checkpointable): a behaviour that can be saved says so and saves
  // what changes after its constructor. A restored behaviour is not start()ed: load() gets the device
  // it runs on instead.
  [[nodiscard]] virtual bool checkpointable() const { return false; }
  virtual void save(boost::archive::binary_oarchive& /*out*/) const {}
  virtual void load(DeviceLp& /*device*/, boost::archive::binary_iarchive& /*in*/) {}
};

class DeviceLp final : public NetworkNodeLp {
 public:
  DeviceLp(NodeId node, NetworkContext& network, std::unique_ptr<DeviceBehaviour> behaviour);

  void init() override;
  void handle(const pdes::Event& event) override;
  void finish() override;
  [[nodiscard]] bool checkpointable() const override { return behaviour_->checkpointable(); }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;

  // For behaviours.
  [[nodiscard]] std::uint32_t device() const noexcept { return device_; }
  [[nodiscard]] pdes::SimTime time() const noexcept { return now(); }
  // Starts sending; the receiver's behaviour gets on_delivery, with `tag`, when the last byte is in.
  // `tag` (< 2^44) must be unique among this device's messages in flight. `depart_after` > 0 (analytical
  // fidelity only) holds the message that long in the device first: Message::depart_after.
  MessageId send_message(std::uint32_t dst_device, std::uint64_t bytes, std::uint64_t flow, std::uint64_t tag,
                         pdes::SimTime depart_after = 0);
  // The same on a flow of this device's own (sender_flow(device(), label)): a point-to-point transfer.
  MessageId send_own_message(std::uint32_t dst_device, std::uint64_t bytes, std::uint32_t label, std::uint64_t tag);
  // A zero-byte message (a signal) that the receiver takes in at `not_before`, or at its arrival over the
  // path (its latency, as for any zero-byte message in both fidelities) if that is later. For a receiver
  // whose only response would be to wait until a time the sender already knows (a closed-form call's
  // release: collectives/closed_form.hpp), the arrival and the wait are one event instead of two.
  MessageId send_signal(std::uint32_t dst_device, std::uint64_t tag, pdes::SimTime not_before);
  // NVLink SHARP (switch_multimem.hpp): contributes `bytes` to the in-switch reduction `tag` whose sum the
  // scale-up switch sends to `owner_device` (tagged `tag`, from the owner) once all `contributors` have.
  MessageId reduce_in_switch(std::uint32_t owner_device, std::uint32_t contributors, std::uint64_t bytes,
                             std::uint64_t tag);
  // The scale-up switch copies the message to every device of `group` (on_delivery, `tag`, from this one).
  MessageId multicast(const MulticastGroup& group, std::uint64_t bytes, std::uint64_t tag);
  // An event to this device's own behaviour after `delay`.
  void schedule(pdes::SimTime delay, pdes::EventKind kind, const pdes::Payload& payload = {}, std::uint32_t aux = 0);
  [[nodiscard]] pdes::CounterRng& random() noexcept { return rng(); }
  [[nodiscard]] DeviceBehaviour& behaviour() noexcept { return *behaviour_; }

  void accept_message(MessageId message, std::uint64_t bytes) override;

 private:
  // The checks every sending call makes: the destination is a device of the cluster; the tag fits a
  // message id (below 2^44), which is returned.
  void check_destination(std::uint32_t dst_device);
  [[nodiscard]] MessageId checked_id(std::uint64_t tag) const;
  // A unit of an NVLS delivery (kMultimemDelivery) of several units: reassembled here, as the switch
  // sends each unit on its own. (Chunks are counted by the node before the destination: ChunkFabric.)
  void accept_unit(const Chunk& chunk, pdes::SimTime tail_at);

  struct Reassembly {
    std::uint32_t chunks = 0;
    std::uint64_t bytes = 0;
    pdes::SimTime last_tail = 0;
  };
  std::uint32_t device_;
  std::unordered_map<MessageId, Reassembly> reassembly_;
  std::unique_ptr<DeviceBehaviour> behaviour_;
};

}  // namespace rackscale::models::network
