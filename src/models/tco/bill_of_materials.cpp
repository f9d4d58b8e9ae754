#include "models/tco/bill_of_materials.hpp"

#include <array>

#include <fmt/format.h>

#include "models/power/power_model.hpp"

namespace rackscale::models::tco {

namespace net = network;

double CableLine::usd() const noexcept {
  return static_cast<double>(copper) * dac_usd + static_cast<double>(optical) * (2 * transceiver_usd + fiber_usd);
}

double CableLine::optics_watts() const noexcept { return static_cast<double>(transceivers()) * transceiver_watts; }

double BillOfMaterials::nics_usd() const noexcept {
  return nics ? static_cast<double>(nics->count) * nics->unit_usd : 0.0;
}

double BillOfMaterials::switches_usd() const noexcept {
  double usd = 0;
  for (const SwitchLine& s : switches)
    if (!s.in_server) usd += static_cast<double>(s.count) * s.unit_usd;
  return usd;
}

double BillOfMaterials::cables_usd() const noexcept {
  double usd = 0;
  for (const CableLine& c : cables) usd += c.usd();
  return usd;
}

double BillOfMaterials::optics_watts() const noexcept {
  double w = 0;
  for (const CableLine& c : cables) w += c.optics_watts();
  return w;
}

std::uint64_t BillOfMaterials::transceivers() const noexcept {
  std::uint64_t n = 0;
  for (const CableLine& c : cables) n += c.transceivers();
  return n;
}

double BillOfMaterials::network_active_watts() const noexcept {
  double w = nics ? static_cast<double>(nics->count) * nics->active_watts : 0.0;
  for (const SwitchLine& s : switches)
    if (!s.in_server) w += s.active_watts;
  return w + optics_watts();
}

namespace {

// The preset's price, the scenario's override for every unit, or the fallback (noted).
double unit_price(const std::optional<double>& override_usd, double preset_usd, double fallback_usd,
                  const std::string& what, std::vector<std::string>& notes) {
  if (override_usd) return *override_usd;
  if (preset_usd > 0) return preset_usd;
  notes.push_back(fmt::format("{} has no price: USD {:.0f} each assumed (set its preset's price or tco.prices)", what,
                              fallback_usd));
  return fallback_usd;
}

constexpr std::array<net::SwitchRole, 5> kRoles{net::SwitchRole::leaf, net::SwitchRole::spine, net::SwitchRole::core,
                                                 net::SwitchRole::router, net::SwitchRole::scale_up};

const char* role_label(net::SwitchRole role) {
  switch (role) {
    case net::SwitchRole::leaf: return "leaf";
    case net::SwitchRole::spine: return "spine";
    case net::SwitchRole::core: return "core";
    case net::SwitchRole::router: return "router";
    case net::SwitchRole::scale_up: return "scale-up";
    case net::SwitchRole::none: break;
  }
  return "switch";
}

const SwitchSpec& spec_of(const net::ClusterSpec& cluster, net::SwitchRole role) {
  switch (role) {
    case net::SwitchRole::scale_up: return cluster.scale_up.switch_spec;
    case net::SwitchRole::spine: return cluster.scale_out.tier_switch(1);
    case net::SwitchRole::core: return cluster.scale_out.tier_switch(2);
    default: return cluster.scale_out.tier_switch(0);
  }
}

}  // namespace

BillOfMaterials bill_of_materials(const net::Topology& topology, const net::ClusterSpec& cluster,
                                  const net::Cabling& cabling, const Prices& prices) {
  BillOfMaterials bom;
  bom.accelerators = topology.device_count();
  bom.hosts = cluster.nodes;
  for (const net::Rack& rack : topology.racks) ++(rack.kind == net::RackKind::compute ? bom.compute_racks : bom.network_racks);

  std::array<std::uint64_t, kRoles.size()> count{}, ports{};
  std::uint64_t nics = 0;
  for (net::NodeId node = 0; node < topology.nodes.size(); ++node) {
    const net::Node& n = topology.nodes[node];
    if (n.kind == net::NodeKind::device) {
      for (const net::Port& p : topology.ports_of(node)) nics += p.link_class == net::LinkClass::nic ? 1 : 0;
      continue;
    }
    for (std::size_t r = 0; r < kRoles.size(); ++r) {
      if (n.role != kRoles[r]) continue;
      ++count[r];
      ports[r] += n.port_count;
    }
  }

  if (nics > 0) {
    const NicSpec& spec = cluster.nic;
    NicLine line{spec.name, nics, 0, spec.idle_watts, spec.active_watts, spec.die_area_mm2, spec.process_nm};
    line.unit_usd = unit_price(prices.nic_usd, spec.price_usd, prices.fallback_nic_usd,
                               fmt::format("NIC '{}'", spec.name), bom.notes);
    bom.nics = line;
  }
  for (std::size_t r = 0; r < kRoles.size(); ++r) {
    if (count[r] == 0) continue;
    const SwitchSpec& spec = spec_of(cluster, kRoles[r]);
    const power::SwitchPower power = power::switch_power(spec);
    SwitchLine line;
    line.tier = role_label(kRoles[r]);
    line.model = spec.name;
    line.count = count[r];
    line.radix = spec.radix;
    line.ports_used = ports[r];
    line.in_server = kRoles[r] == net::SwitchRole::scale_up;
    if (!line.in_server) {
      line.unit_usd = unit_price(prices.switch_usd, spec.price_usd, prices.fallback_switch_usd,
                                 fmt::format("{} switch '{}'", line.tier, spec.name), bom.notes);
    }
    line.idle_watts = static_cast<double>(count[r]) * power.idle_watts();
    line.active_watts = line.idle_watts + static_cast<double>(ports[r] * power.port_mw) * 1e-3;
    line.die_area_mm2 = spec.die_area_mm2;
    line.process_nm = spec.process_nm;
    bom.switches.push_back(line);
  }

  for (const net::CableGroup& g : cabling.groups) {
    CableLine line;
    line.tier = net::link_class_label(g.link_class);
    line.port_bandwidth = g.port_bandwidth;
    line.copper = g.copper;
    line.optical = g.optical;
    if (g.optics == nullptr) {
      bom.notes.push_back(fmt::format("no optics preset serves the {:g} Gb/s ports of the {} cables: their optics "
                                      "are counted without price, power or carbon (add one to cluster.scale_out.optics)",
                                      g.port_bandwidth * 8 / 1e9, line.tier));
    } else {
      const OpticsSpec& o = *g.optics;
      line.optics = o.name;
      line.dac_usd = o.dac_usd;
      line.transceiver_usd = o.transceiver_usd;
      line.fiber_usd = o.fiber_usd;
      line.transceiver_watts = o.transceiver_watts;
      line.die_area_mm2 = o.die_area_mm2;
      line.process_nm = o.process_nm;
    }
    if (prices.optics_per_port_usd) {
      // A price per cable end: a transceiver at each end of an optical cable, half a copper cable at each
      // end of a copper one.
      line.transceiver_usd = *prices.optics_per_port_usd;
      line.dac_usd = 2 * *prices.optics_per_port_usd;
      line.fiber_usd = 0;
    }
    bom.cables.push_back(line);
  }
  return bom;
}

std::vector<NetworkItem> network_items(const BillOfMaterials& bom) {
  std::vector<NetworkItem> items;
  if (bom.nics) {
    items.push_back({"NICs " + bom.nics->model, NetworkPart::nics, bom.nics->count, bom.nics->unit_usd,
                     bom.nics->die_area_mm2, bom.nics->process_nm});
  }
  for (const SwitchLine& s : bom.switches) {
    if (s.in_server) continue;
    items.push_back({s.tier + " switches " + s.model, NetworkPart::switches, s.count, s.unit_usd, s.die_area_mm2,
                     s.process_nm});
  }
  for (const CableLine& c : bom.cables) {
    if (c.copper > 0) items.push_back({c.tier + " copper cables", NetworkPart::optics, c.copper, c.dac_usd, 0, 0});
    if (c.optical > 0) {
      items.push_back({c.tier + " transceivers", NetworkPart::optics, c.transceivers(), c.transceiver_usd,
                       c.die_area_mm2, c.process_nm});
      items.push_back({c.tier + " fibre", NetworkPart::optics, c.optical, c.fiber_usd, 0, 0});
    }
  }
  return items;
}

}  // namespace rackscale::models::tco
