#include "models/network/cabling.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace rackscale::models::network {
namespace {

constexpr std::size_t kLinkClasses = 7;

std::uint32_t milliwatts(double watts) { return static_cast<std::uint32_t>(std::llround(watts * 1000.0)); }

}  // namespace

std::uint64_t Cabling::transceivers() const noexcept {
  std::uint64_t n = 0;
  for (const CableGroup& g : groups) n += 2 * g.optical;
  return n;
}

double Cabling::optics_watts() const noexcept {
  double w = 0;
  for (const CableGroup& g : groups)
    if (g.optics != nullptr) w += 2.0 * static_cast<double>(g.optical) * g.optics->transceiver_watts;
  return w;
}

std::string link_class_label(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::scale_up: return "scale-up";
    case LinkClass::nic: return "NIC";
    case LinkClass::leaf_spine: return "leaf-spine";
    case LinkClass::spine_core: return "spine-core";
    case LinkClass::local: return "local";
    case LinkClass::global: return "global";
    case LinkClass::torus: return "torus";
  }
  return "link";
}

double nominal_port_bandwidth(const ClusterSpec& cluster, LinkClass link_class) {
  const ScaleOutSpec& out = cluster.scale_out;
  switch (link_class) {
    case LinkClass::nic: return std::min(cluster.nic.bandwidth, out.tier_switch(0).port_bandwidth);
    case LinkClass::leaf_spine: return std::min(out.tier_switch(0).port_bandwidth, out.tier_switch(1).port_bandwidth);
    case LinkClass::spine_core: return std::min(out.tier_switch(1).port_bandwidth, out.tier_switch(2).port_bandwidth);
    case LinkClass::local:
    case LinkClass::global: return out.switch_spec.port_bandwidth;
    case LinkClass::torus: return out.torus.link_bandwidth;
    case LinkClass::scale_up: return cluster.scale_up.bandwidth;
  }
  return 0;
}

const OpticsSpec* optics_for(const std::vector<OpticsSpec>& catalog, double port_bandwidth) noexcept {
  const OpticsSpec* best = nullptr;
  for (const OpticsSpec& o : catalog) {
    // A relative slack, so that 400 Gb/s read two ways still matches.
    if (o.port_bandwidth < port_bandwidth * (1 - 1e-9)) continue;
    if (best == nullptr || o.port_bandwidth < best->port_bandwidth) best = &o;
  }
  return best;
}

Cabling plan_cabling(const Topology& topology, const ClusterSpec& cluster) {
  std::array<CableGroup, kLinkClasses> by_class{};
  for (std::size_t c = 0; c < kLinkClasses; ++c) {
    by_class[c].link_class = static_cast<LinkClass>(c);
    by_class[c].port_bandwidth = nominal_port_bandwidth(cluster, by_class[c].link_class);
    by_class[c].optics = optics_for(cluster.scale_out.optics, by_class[c].port_bandwidth);
  }
  Cabling cabling;
  cabling.port_optics_mw.assign(topology.ports.size(), 0);
  for (NodeId node = 0; node < topology.nodes.size(); ++node) {
    for (PortIndex i = 0; i < topology.nodes[node].port_count; ++i) {
      const Port& port = topology.port(node, i);
      if (port.link_class == LinkClass::scale_up) continue;
      CableGroup& group = by_class[static_cast<std::size_t>(port.link_class)];
      const bool optical = topology.nodes[port.peer].rack != topology.nodes[node].rack;
      if (optical && group.optics != nullptr)
        cabling.port_optics_mw[topology.port_id(node, i)] = milliwatts(group.optics->transceiver_watts);
      // Each cable once, from its end with the lower (node, port).
      if (port.peer < node || (port.peer == node && port.peer_port < i)) continue;
      ++group.cables;
      ++(optical ? group.optical : group.copper);
    }
  }
  for (const CableGroup& g : by_class)
    if (g.cables > 0) cabling.groups.push_back(g);
  return cabling;
}

}  // namespace rackscale::models::network
