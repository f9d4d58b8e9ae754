#include "models/power/cluster_energy.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "models/power/energy_meter.hpp"

namespace rackscale::models::power {

namespace net = network;

ClusterPower cluster_power(const net::ClusterSpec& cluster, double host_idle_watts, double host_active_watts,
                           double memory_bound_activity) {
  ClusterPower p;
  p.accelerator = accelerator_levels(cluster.accelerator);
  p.host = make_levels(host_idle_watts, host_active_watts);
  if (cluster.nics_per_node > 0) p.nic = nic_levels(cluster.nic);
  if (cluster.scale_up.kind == net::ScaleUpKind::nvswitch) p.scale_up_switch = switch_power(cluster.scale_up.switch_spec);
  if (cluster.scale_out.kind != net::ScaleOutKind::none && cluster.scale_out.kind != net::ScaleOutKind::torus3d)
    for (std::uint32_t tier = 0; tier < 3; ++tier) p.scale_out_switch[tier] = switch_power(cluster.scale_out.tier_switch(tier));
  p.memory_bound_activity = memory_bound_activity;
  return p;
}

std::array<std::uint64_t, ClassEnergy::kLimbs> ClassEnergy::limbs() const noexcept {
  return {accelerators.millijoules(), accelerators.femtojoule_remainder(), hosts.millijoules(),
          hosts.femtojoule_remainder(),  nics.millijoules(),               nics.femtojoule_remainder(),
          switches.millijoules(),        switches.femtojoule_remainder(),  optics.millijoules(),
          optics.femtojoule_remainder()};
}

ClassEnergy ClassEnergy::from_limbs(std::span<const std::uint64_t, kLimbs> l) {
  return {Energy::from_limbs(l[0], l[1]), Energy::from_limbs(l[2], l[3]), Energy::from_limbs(l[4], l[5]),
          Energy::from_limbs(l[6], l[7]), Energy::from_limbs(l[8], l[9])};
}

namespace {

// The mean of `parts` busy times summing to `sum`, rounded to the nearest ps.
pdes::SimTime mean_busy(pdes::SimTime sum, std::uint32_t parts) { return mean_port_busy(sum, parts); }

Energy metered(const PowerLevels& levels, pdes::SimTime busy, pdes::SimTime interval) {
  EnergyMeter meter(levels);
  meter.add_busy(std::min(busy, interval), interval);
  return meter.energy();
}

// The fat-tree tier of a scale-out switch (dragonfly routers use the leaf's switch, tier 0).
std::size_t tier_of(net::SwitchRole role) {
  return role == net::SwitchRole::spine ? 1 : role == net::SwitchRole::core ? 2 : 0;
}

}  // namespace

MeteredEnergy meter_components(const MeteringInput& in) {
  const net::Topology& topo = in.topology;
  const pdes::SimTime T = in.interval;
  const auto port_busy = [&](std::uint32_t port_id) { return std::min<pdes::SimTime>(in.port_busy[port_id], T); };
  MeteredEnergy out;
  ClassEnergy& e = out.by_class;

  // Accelerators, and their NICs: the device's port to its leaf (transmit) and the leaf's port back
  // (receive).
  std::map<std::uint32_t, std::pair<pdes::SimTime, std::uint32_t>> hosts;  // host -> (sum of busy, devices)
  for (const auto& [device, activity] : in.devices) {
    const pdes::SimTime busy = std::min(accelerator_busy(activity, in.power.memory_bound_activity), T);
    const Energy acc = metered(in.power.accelerator, busy, T);
    e.accelerators += acc;
    out.devices.push_back({device, acc});
    auto& host = hosts[device / in.cluster.devices_per_node];
    host.first += busy;
    ++host.second;

    const net::NodeId node = topo.devices[device];
    for (net::PortIndex i = 0; i < topo.nodes[node].port_count; ++i) {
      const net::Port& port = topo.port(node, i);
      if (port.link_class != net::LinkClass::nic) continue;
      const pdes::SimTime tx = port_busy(topo.port_id(node, i));
      const pdes::SimTime rx = port_busy(topo.port_id(port.peer, port.peer_port));
      e.nics += metered(in.power.nic, mean_busy(tx + rx, 2), T);
    }
  }
  for (const auto& [host, busy] : hosts) {
    if (busy.second != in.cluster.devices_per_node)
      throw std::invalid_argument(fmt::format("energy metering: host {} has {} of its {} devices on this rank", host,
                                              busy.second, in.cluster.devices_per_node));
    e.hosts += metered(in.power.host, mean_busy(busy.first, busy.second), T);
  }

  // Optics: the transceivers at this node's cable ends, drawing their power the whole interval.
  const auto optics = [&](net::NodeId node) {
    if (in.port_optics_mw.empty()) return;
    std::uint64_t mw = 0;
    for (net::PortIndex i = 0; i < topo.nodes[node].port_count; ++i) mw += in.port_optics_mw[topo.port_id(node, i)];
    if (mw > 0) e.optics += Energy::from_power(mw, T);
  };
  for (const auto& entry : in.devices) optics(topo.devices[entry.first]);

  for (const net::NodeId node : in.switches) {
    const net::Node& n = topo.nodes[node];
    const SwitchPower& power =
        n.role == net::SwitchRole::scale_up ? in.power.scale_up_switch : in.power.scale_out_switch[tier_of(n.role)];
    e.switches += Energy::from_power(power.idle_mw, T);
    // Each port at the mean of its two directions' busy time, so a port at full rate both ways adds its power.
    for (net::PortIndex i = 0; i < n.port_count; ++i) {
      const net::Port& port = topo.port(node, i);
      const pdes::SimTime tx = port_busy(topo.port_id(node, i));
      const pdes::SimTime rx = port_busy(topo.port_id(port.peer, port.peer_port));
      e.switches += Energy::from_power(power.port_mw, mean_busy(tx + rx, 2));
    }
    optics(node);
  }
  return out;
}

}  // namespace rackscale::models::power
