#include "models/network/fidelity.hpp"
#include "models/network/switch_multimem.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/network_events.hpp"
#include "models/network/network_node_lp.hpp"

namespace rackscale::models::network {

namespace {
// Analytical fidelity carries a message whole; units of at most 2 GiB keep a unit's size in the event's
// 32-bit aux field.
constexpr std::uint64_t kAnalyticalUnitBytes = std::uint64_t{1} << 31;

std::uint64_t unit_bytes(const NetworkSpec& spec) {
  return models_contention(spec.fidelity) ? spec.chunk_bytes : kAnalyticalUnitBytes;
}

// The records the NVLS events carry (aux: the unit's bytes, where it is not in the record).
struct ReduceUnit {  // kMultimemReduce
  MessageId id;
  pdes::SimTime tail_after;
  PortIndex owner_port;
  PortIndex from_port;
  std::uint32_t contributors;
  std::uint32_t units;
};
struct MulticastUnit {  // kMultimemMulticast
  MessageId id;
  pdes::SimTime tail_after;
  std::uint64_t low;  // MulticastGroup's port bits
  std::uint32_t high;
  std::uint32_t units;
};
struct SumReady {  // kMultimemSumReady
  MessageId id;
  pdes::SimTime tail_after;
  std::uint64_t bytes;
  std::uint32_t units;
  PortIndex owner_port;
};

std::uint64_t reduction_key(std::uint64_t tag, PortIndex owner_port) {
  return tag | (static_cast<std::uint64_t>(owner_port) << kMessageTagBits);
}

// The device's cable to its scale-up switch: port 0 in an NVSwitch fabric.
const Port& switch_cable(const Topology& topology, std::uint32_t device) {
  if (device >= topology.device_count())
    throw std::invalid_argument(fmt::format("NVLS: device {} is not in the cluster ({} devices)", device,
                                            topology.device_count()));
  const NodeId node = topology.devices[device];
  if (topology.nodes[node].port_count == 0 || topology.port(node, 0).link_class != LinkClass::scale_up ||
      topology.nodes[topology.port(node, 0).peer].role != SwitchRole::scale_up)
    throw std::invalid_argument(
        fmt::format("NVLS: device {} has no NVSwitch (its first port is not a scale-up cable to a scale-up switch)",
                    device));
  return topology.port(node, 0);
}

// Sends `bytes` from `device` into its switch in units, each as an event of `kind` whose payload
// `payload_of(tail_after)` makes.
template <class Payload>
void send_up(NetworkNodeLp& device, std::uint64_t bytes, pdes::EventKind kind, Payload payload_of) {
  const NetworkContext& context = device.network();
  const Topology& topology = *context.topology;
  const Port& cable = switch_cable(topology, topology.nodes[device.node()].device);
  const std::uint64_t unit = unit_bytes(context.spec);
  const std::uint64_t units = std::max<std::uint64_t>(1, (bytes + unit - 1) / unit);
  if (units > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error(fmt::format("an NVLS message of {} bytes has more than 2^32-1 units of {} bytes", bytes,
                                        unit));
  const pdes::SimTime now = device.current_time();
  for (std::uint64_t k = 0; k < units; ++k) {
    const std::uint64_t b = std::min(unit, bytes - k * unit);
    const pdes::SimTime serialize = serialization_time(b, cable.bandwidth);
    const Transmission tx = device.output_port(0).transmit(now, 0, serialize);
    // An empty message (a member's empty share of a tiny call) still counts as a contribution, but
    // loads no port.
    if (b > 0) device.network().counters.record(topology.port_id(device.node(), 0), b, serialize, tx.start - now);
    const bool cut_through = context.spec.forwarding == Forwarding::cut_through;
    const pdes::SimTime ready = cut_through ? tx.start + cable.latency : tx.finish + cable.latency;
    const pdes::SimTime tail_after = cut_through ? tx.finish - tx.start : 0;
    device.emit(cable.peer, ready - now, kind, payload_of(tail_after, static_cast<std::uint32_t>(units)),
                static_cast<std::uint32_t>(b));
  }
}
}  // namespace

std::uint32_t MulticastGroup::size() const noexcept {
  return static_cast<std::uint32_t>(std::popcount(low) + std::popcount(high));
}

PortIndex scale_up_switch_port(const Topology& topology, std::uint32_t device) {
  return switch_cable(topology, device).peer_port;
}

MulticastGroup multicast_group(const Topology& topology, std::span<const std::uint32_t> members) {
  MulticastGroup group;
  if (members.empty()) return group;
  const NodeId sw = switch_cable(topology, members.front()).peer;
  for (const std::uint32_t m : members) {
    const Port& cable = switch_cable(topology, m);
    if (cable.peer != sw)
      throw std::invalid_argument(fmt::format("NVLS: devices {} and {} are behind different scale-up switches",
                                              members.front(), m));
    if (cable.peer_port >= kMaxMulticastPorts)
      throw std::invalid_argument(fmt::format("NVLS: device {} is at switch port {}; a multicast group holds ports "
                                              "0 to {}",
                                              m, cable.peer_port, kMaxMulticastPorts - 1));
    group.add(cable.peer_port);
  }
  return group;
}

void send_reduce_contribution(NetworkNodeLp& device, MessageId id, std::uint32_t owner_device,
                              std::uint32_t contributors, std::uint64_t bytes) {
  const Topology& topology = *device.network().topology;
  const std::uint32_t self = topology.nodes[device.node()].device;
  const Port& mine = switch_cable(topology, self);
  const Port& owner = switch_cable(topology, owner_device);
  if (owner.peer != mine.peer)
    throw std::invalid_argument(fmt::format("NVLS: device {} cannot reduce into device {}: they are behind "
                                            "different scale-up switches",
                                            self, owner_device));
  if (contributors == 0) throw std::invalid_argument("NVLS: a reduction needs at least one contributor");
  send_up(device, bytes, kMultimemReduce, [&](pdes::SimTime tail_after, std::uint32_t units) {
    return pdes::to_payload(ReduceUnit{id, tail_after, owner.peer_port, mine.peer_port, contributors, units});
  });
}

void send_multicast(NetworkNodeLp& device, MessageId id, const MulticastGroup& group, std::uint64_t bytes) {
  send_up(device, bytes, kMultimemMulticast, [&](pdes::SimTime tail_after, std::uint32_t units) {
    return pdes::to_payload(MulticastUnit{id, tail_after, group.low, group.high, units});
  });
}

MultimemUnitArrival decode_multimem_delivery(const pdes::Event& event) noexcept {
  return event.as<MultimemUnitArrival>();
}

void SwitchMultimem::on_event(NetworkNodeLp& node, const pdes::Event& event) {
  if (event.kind == kMultimemReduce)
    on_reduce(node, event);
  else if (event.kind == kMultimemSumReady)
    on_sum_ready(node, event);
  else
    on_multicast(node, event);
}

void SwitchMultimem::on_reduce(NetworkNodeLp& node, const pdes::Event& event) {
  const NetworkContext& context = node.network();
  const double rate = context.topology->nvls_reduce_bandwidth;
  if (!(rate > 0))
    throw std::logic_error(fmt::format("scale-up switch node {} got an NVLS reduction, but its switch has no "
                                       "nvls_reduce_bandwidth",
                                       node.node()));
  const auto [id, tail_after, owner_port, from_port, contributors, units] = event.as<ReduceUnit>();
  const std::uint64_t bytes = event.aux;
  if (owner_port >= ports_ || from_port >= ports_)
    throw std::logic_error(fmt::format("scale-up switch node {}: NVLS reduction between ports {} and {} of {}",
                                       node.node(), from_port, owner_port, ports_));

  // The operand through its port's engine; in store-and-forward the unit is all here already.
  const Transmission engine = engines_[from_port].transmit(event.time, tail_after, serialization_time(bytes, rate));
  const std::uint64_t key = reduction_key(tag_of(id), owner_port);
  Reduction& r = reductions_[key];
  if (r.received.empty()) {
    r.contributors = contributors;
    r.units = units;
    r.received.assign(ports_, 0);
  }
  if (r.contributors != contributors || r.units != units)
    throw std::logic_error(fmt::format("scale-up switch node {}: contributions to reduction {:#x} disagree ({} or {} "
                                       "contributors, {} or {} units)",
                                       node.node(), tag_of(id), r.contributors, contributors, r.units, units));
  const std::uint32_t unit = r.received[from_port]++;
  if (unit >= r.units)
    throw std::logic_error(fmt::format("scale-up switch node {}: port {} contributed more than {} units to reduction "
                                       "{:#x}",
                                       node.node(), from_port, r.units, tag_of(id)));
  const std::size_t slot = unit - r.sent;  // unit j cannot have been sent before this port's unit j came
  if (r.open.size() <= slot) r.open.resize(slot + 1);
  Gather& g = r.open[slot];
  ++g.arrived;
  g.head = std::max(g.head, engine.start);
  g.tail = std::max(g.tail, engine.finish);
  g.bytes = bytes;

  const NodeId owner_node = context.topology->port(node.node(), owner_port).peer;
  const MessageId sum_id = make_message_id(context.topology->nodes[owner_node].device, tag_of(id));
  while (!r.open.empty() && r.open.front().arrived == r.contributors) {
    const Gather done = r.open.front();
    r.open.pop_front();
    ++r.sent;
    // Cut-through: it may start when every operand has started through its engine; store-and-forward:
    // when all of it is reduced.
    const bool cut_through = context.spec.forwarding == Forwarding::cut_through;
    const pdes::SimTime start = cut_through ? done.head : done.tail;
    node.emit(node.node(), start - event.time, kMultimemSumReady,
              pdes::to_payload(SumReady{sum_id, done.tail - start, done.bytes, r.units, owner_port}));
  }
  if (r.sent == r.units) reductions_.erase(key);
}

void SwitchMultimem::on_sum_ready(NetworkNodeLp& node, const pdes::Event& event) {
  const auto sum = event.as<SumReady>();
  send_down(node, sum.owner_port, sum.id, sum.bytes, sum.units, event.time, sum.tail_after);
}

void SwitchMultimem::on_multicast(NetworkNodeLp& node, const pdes::Event& event) {
  const auto unit = event.as<MulticastUnit>();
  MulticastGroup group;
  group.low = unit.low;
  group.high = unit.high;
  for (PortIndex port = 0; port < std::min<std::uint32_t>(ports_, kMaxMulticastPorts); ++port)
    if (group.has(port)) send_down(node, port, unit.id, event.aux, unit.units, event.time, unit.tail_after);
}

void SwitchMultimem::send_down(NetworkNodeLp& node, PortIndex port_index, MessageId id, std::uint64_t bytes,
                               std::uint32_t units, pdes::SimTime head, pdes::SimTime tail_after) {
  NetworkContext& context = node.network();
  const Topology& topology = *context.topology;
  const Port& port = topology.port(node.node(), port_index);
  const pdes::SimTime serialize = serialization_time(bytes, port.bandwidth);
  const Transmission tx = node.output_port(port_index).transmit(head, tail_after, serialize);
  if (bytes > 0) context.counters.record(topology.port_id(node.node(), port_index), bytes, serialize, tx.start - head);
  const bool cut_through = context.spec.forwarding == Forwarding::cut_through;
  pdes::SimTime ready = cut_through ? tx.start + port.latency : tx.finish + port.latency;
  pdes::SimTime tail = cut_through ? tx.finish - tx.start : 0;
  if (units == 1) {  // the message is in when this unit's tail is: deliver it then, without reassembly
    ready += tail;
    tail = 0;
  }
  node.emit(port.peer, ready - node.current_time(), kMultimemDelivery,
            pdes::to_payload(MultimemUnitArrival{id, bytes, units, tail}));
}

}  // namespace rackscale::models::network
