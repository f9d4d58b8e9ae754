#pragma once
// NVLink SHARP (NVLS): the scale-up switch reduces and multicasts, as an NVSwitch does for the multimem
// loads and stores of NCCL's NVLS algorithm. Two kinds of message go into a device's scale-up switch
// instead of to another device:
//
//   reduce     one contribution to an in-switch reduction. Each of `contributors` devices sends a
//              message of the same size with the same tag and owner; the switch adds them and sends the
//              sum to the owner (multimem.ld_reduce: the owner reads the sum of everyone's copy).
//   multicast  the switch copies the message to every device of a group, its sender included
//              (multimem.st to a multicast address).
//
// Messages travel in units: network.chunk_size bytes in chunk fidelity; in analytical fidelity the
// whole message (in units of at most 2 GiB), so that it costs one event per hop. Units leave the device
// through its scale-up port and the switch's results through the switch's ports, FIFO and with the same
// cut-through / store-and-forward rules as ChunkFabric, and are counted in the port counters like any
// traffic. In analytical fidelity the ports' queues serve only these messages (everything else crosses
// the analytical fabric without queueing), so NVLS traffic is serialized against itself, as the
// collectives engine paces a device's other messages (collectives/send_pacer.hpp).
//
// Reduction throughput. Every operand unit passes the reduction engine of the switch port it arrived
// on: a FIFO server at Topology::nvls_reduce_bandwidth bytes/s. Unit j of the sum may start leaving for
// the owner once unit j of every contribution has started through its engine, and cannot finish before
// the last of them has finished. Multicast copies are limited by the ports only. docs/models.md ("NVLS")
// has the closed forms this gives.
//
// An output port serves units in the order they are handed to it (output_port.hpp), so a unit of a sum
// is handed over when it may start (a self-event, kMultimemSumReady), not when its last operand arrives:
// otherwise a sum that the engines will take long to produce would hold the port against multicast
// copies that are ready before it.
//
// A device's units reach its switch in the order it sent them (one port, one cable, FIFO), so the j-th
// unit the switch sees from a device for a reduction is that contribution's unit j.
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "models/network/message.hpp"
#include "models/network/output_port.hpp"
#include "models/network/topology.hpp"
#include "pdes/event.hpp"

namespace rackscale::models::network {

class NetworkNodeLp;

// A multicast group travels in the message as a mask of the switch's ports (port i = device i of the
// domain): 96 bits fit the event beside the message's other fields, so multicast needs domains of at
// most 96 devices (an NVL72 rack has 72).
inline constexpr std::uint32_t kMaxMulticastPorts = 96;

struct MulticastGroup {
  std::uint64_t low = 0;   // ports 0-63
  std::uint32_t high = 0;  // ports 64-95

  void add(PortIndex port) noexcept {
    if (port < 64)
      low |= std::uint64_t{1} << port;
    else
      high |= std::uint32_t{1} << (port - 64);
  }
  [[nodiscard]] bool has(PortIndex port) const noexcept {
    return port < 64 ? ((low >> port) & 1) != 0 : ((high >> (port - 64)) & 1) != 0;
  }
  [[nodiscard]] std::uint32_t size() const noexcept;
};

// The port of `device`'s scale-up switch that leads to it. Throws std::invalid_argument when the device
// has no NVSwitch (its port 0 is not a scale-up cable to a scale-up switch).
[[nodiscard]] PortIndex scale_up_switch_port(const Topology& topology, std::uint32_t device);

// `members` as a group of the scale-up switch of `members[0]`. Throws std::invalid_argument when a member
// is behind another switch (or none) or at a port beyond kMaxMulticastPorts.
[[nodiscard]] MulticastGroup multicast_group(const Topology& topology, std::span<const std::uint32_t> members);

// At the sending device, inside one of its handlers (DeviceLp::reduce_in_switch / multicast).
void send_reduce_contribution(NetworkNodeLp& device, MessageId id, std::uint32_t owner_device,
                              std::uint32_t contributors, std::uint64_t bytes);
void send_multicast(NetworkNodeLp& device, MessageId id, const MulticastGroup& group, std::uint64_t bytes);

// A unit that reached a device from its switch (kMultimemDelivery): the message's unit count and the tail.
// The event carries this record (pdes::to_payload).
struct MultimemUnitArrival {
  MessageId id = 0;
  std::uint64_t bytes = 0;
  std::uint32_t units = 0;
  pdes::SimTime tail_after = 0;
};
[[nodiscard]] MultimemUnitArrival decode_multimem_delivery(const pdes::Event& event) noexcept;

// The reduction and multicast logic of one scale-up switch (SwitchLp owns one once it sees NVLS
// traffic).
class SwitchMultimem {
 public:
  explicit SwitchMultimem(PortIndex ports) : engines_(ports), ports_(ports) {}
  // A kMultimemReduce, kMultimemMulticast or kMultimemSumReady event at `node` (the switch).
  void on_event(NetworkNodeLp& node, const pdes::Event& event);

 private:
  struct Gather {  // unit j of a reduction, over the contributions that have passed their engines
    std::uint32_t arrived = 0;
    pdes::SimTime head = 0;  // the latest start through an engine
    pdes::SimTime tail = 0;  // the latest finish
    std::uint64_t bytes = 0;
  };
  struct Reduction {
    std::uint32_t contributors = 0;
    std::uint32_t units = 0;
    std::uint32_t sent = 0;               // units of the sum sent to the owner
    std::vector<std::uint32_t> received;  // by switch port: units received from that device
    std::deque<Gather> open;              // units sent, sent + 1, ...
  };
  void on_reduce(NetworkNodeLp& node, const pdes::Event& event);
  void on_multicast(NetworkNodeLp& node, const pdes::Event& event);
  void on_sum_ready(NetworkNodeLp& node, const pdes::Event& event);
  // Sends a unit out of `port` towards its device: head ready at `head`, all of it by head + tail_after.
  void send_down(NetworkNodeLp& node, PortIndex port, MessageId id, std::uint64_t bytes, std::uint32_t units,
                 pdes::SimTime head, pdes::SimTime tail_after);

  std::vector<OutputPort> engines_;  // the reduction engine of each port
  PortIndex ports_;
  std::unordered_map<std::uint64_t, Reduction> reductions_;  // by tag | owner port << 44
};

}  // namespace rackscale::models::network
