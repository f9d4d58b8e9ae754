#include "models/network/topology/scale_out_cables.hpp"

#include <algorithm>
#include <cmath>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {

ScaleOutCables plan_scale_out_cables(const ClusterSpec& cluster, std::string_view topology) {
  if (cluster.nics_per_node != cluster.devices_per_node) {
    spec_error("cluster.nics_per_node", "a {} is reached through one NIC per device, so expected {} (devices_per_node); got {}",
               topology, cluster.devices_per_node, cluster.nics_per_node);
  }
  if (!(cluster.nic.bandwidth > 0) || !std::isfinite(cluster.nic.bandwidth)) {
    spec_error("cluster.nic.bandwidth", "expected a positive bandwidth in bytes/s; got {}", cluster.nic.bandwidth);
  }
  const SwitchSpec& sw = cluster.scale_out.switch_spec;
  if (!(sw.port_bandwidth > 0) || !std::isfinite(sw.port_bandwidth)) {
    spec_error("cluster.scale_out.switch.port_bandwidth", "expected a positive bandwidth in bytes/s; got {}", sw.port_bandwidth);
  }
  if (cluster.scale_out.switches_per_rack == 0) {
    spec_error("cluster.scale_out.switches_per_rack", "expected at least 1; got 0");
  }
  const pdes::SimTime cable = cluster.scale_out.cable_latency;
  ScaleOutCables cables;
  cables.nic_bandwidth = std::min(cluster.nic.bandwidth * cluster.nic.efficiency, sw.port_bandwidth);
  cables.switch_bandwidth = sw.port_bandwidth;
  // The NIC's latency is split between its transmit and receive sides, as a NIC spends it on both.
  // End to end nothing changes, but the switch -> device direction is no longer bare cable, which
  // would otherwise set a short lookahead wherever NIC cables cross ranks.
  const pdes::SimTime nic_transmit = cluster.nic.latency / 2;
  cables.device_to_switch = nic_transmit + cable + sw.latency;
  cables.switch_to_device = cable + (cluster.nic.latency - nic_transmit);
  cables.switch_to_switch = cable + sw.latency;
  return cables;
}

}  // namespace rackscale::models::network
