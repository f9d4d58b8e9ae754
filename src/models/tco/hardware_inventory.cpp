#include "models/tco/hardware_inventory.hpp"

namespace rackscale::models::tco {

namespace net = network;

namespace {
bool scale_out_cable(net::LinkClass c) {
  switch (c) {
    case net::LinkClass::nic:
    case net::LinkClass::leaf_spine:
    case net::LinkClass::spine_core:
    case net::LinkClass::local:
    case net::LinkClass::global:
      return true;
    case net::LinkClass::scale_up:
    case net::LinkClass::torus:
      return false;
  }
  return false;
}
}  // namespace

HardwareInventory inventory_of(const net::Topology& topology, const net::ClusterSpec& cluster,
                               const power::ClusterPower& power) {
  HardwareInventory inv;
  HardwareCounts& c = inv.counts;
  c.accelerators = topology.device_count();
  c.hosts = cluster.nodes;
  std::uint64_t scale_out_ports = 0;  // directed: two per cable
  for (net::NodeId node = 0; node < topology.nodes.size(); ++node) {
    const net::Node& n = topology.nodes[node];
    if (n.kind == net::NodeKind::switch_node) {
      if (n.role == net::SwitchRole::scale_up)
        ++inv.scale_up_switches;
      else
        ++c.switches;
    }
    for (const net::Port& port : topology.ports_of(node)) {
      if (!scale_out_cable(port.link_class)) continue;
      ++scale_out_ports;
      if (port.link_class == net::LinkClass::nic && n.kind == net::NodeKind::device) ++c.nics;
    }
  }
  inv.scale_out_cables = scale_out_ports / 2;
  c.optical_ports = 2 * inv.scale_out_cables;
  const auto watts = [](std::uint64_t count, const power::PowerLevels& levels) {
    return static_cast<double>(count) * levels.active_watts();
  };
  inv.provisioned_it_watts = watts(c.accelerators, power.accelerator) + watts(c.hosts, power.host) +
                             watts(c.nics, power.nic) + watts(inv.scale_up_switches, power.scale_up_switch) +
                             watts(c.switches, power.scale_out_switch);
  return inv;
}

}  // namespace rackscale::models::tco
