#include "models/tco/hardware_inventory.hpp"

namespace rackscale::models::tco {

HardwareInventory inventory_of(const network::Topology& topology, const network::ClusterSpec& cluster,
                               const network::Cabling& cabling, const power::ClusterPower& power,
                               const Prices& prices) {
  HardwareInventory inv;
  inv.bom = bill_of_materials(topology, cluster, cabling, prices);
  const BillOfMaterials& bom = inv.bom;
  HardwareCounts& c = inv.counts;
  c.accelerators = bom.accelerators;
  c.hosts = bom.hosts;
  c.nics = bom.nics ? bom.nics->count : 0;
  double scale_up_watts = 0;
  for (const SwitchLine& s : bom.switches) {
    if (s.in_server) {
      inv.scale_up_switches += s.count;
      scale_up_watts += s.active_watts;
    } else {
      c.switches += s.count;
    }
  }
  c.optical_ports = bom.transceivers();
  const auto watts = [](std::uint64_t count, const power::PowerLevels& levels) {
    return static_cast<double>(count) * levels.active_watts();
  };
  inv.provisioned_it_watts = watts(c.accelerators, power.accelerator) + watts(c.hosts, power.host) + scale_up_watts +
                             bom.network_active_watts();
  return inv;
}

}  // namespace rackscale::models::tco
