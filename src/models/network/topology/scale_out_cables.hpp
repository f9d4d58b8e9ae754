#pragma once
// The figures of scale-out cables (NIC to switch and switch to switch) for fat trees and dragonflies,
// and the checks of the spec fields they come from.
#include <string_view>

#include "models/network/cluster_spec.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

struct ScaleOutCables {
  double nic_bandwidth = 0;     // min(NIC, switch port): the slower end sets the line rate
  double switch_bandwidth = 0;  // switch port to switch port
  // Port latencies: cable propagation plus the receiving switch's forwarding latency; out of a device
  // also half its NIC's latency (transmit side), towards a device the other half (receive side).
  pdes::SimTime device_to_switch = 0;
  pdes::SimTime switch_to_device = 0;
  pdes::SimTime switch_to_switch = 0;
};

// Checks cluster.nics_per_node, cluster.nic, cluster.scale_out.switch and switches_per_rack for a
// scale-out network of switches reached through one NIC per device.
[[nodiscard]] ScaleOutCables plan_scale_out_cables(const ClusterSpec& cluster, std::string_view topology);

}  // namespace rackscale::models::network
