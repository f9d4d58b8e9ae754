#pragma once
// The physical cables of a cluster's network, for its bill of materials and the power of its optics:
// each scale-out cable (and torus link) at its port speed, a passive copper cable when both ends are in
// one rack, an optical link with a transceiver at each end when it joins two racks, and the optics preset
// of its speed (the slowest preset at least as fast as the port). Scale-up links are inside the servers
// and not listed. Deterministic arithmetic on the topology, identical on every rank.
#include <cstdint>
#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// The cables of one link class.
struct CableGroup {
  LinkClass link_class = LinkClass::nic;
  double port_bandwidth = 0;       // nominal port speed of the slower end, bytes/s per direction
  const OpticsSpec* optics = nullptr;  // into ScaleOutSpec::optics; null when no preset serves the speed
  std::uint64_t cables = 0;
  std::uint64_t copper = 0;        // both ends in one rack
  std::uint64_t optical = 0;       // between racks: a transceiver at each end
};

struct Cabling {
  std::vector<CableGroup> groups;  // the link classes present, in LinkClass order (scale-up excluded)
  // The optics' draw at every directed port (Topology port id): the transceiver at that cable end, in
  // milliwatts; 0 for copper, scale-up and ends without a preset.
  std::vector<std::uint32_t> port_optics_mw;

  [[nodiscard]] std::uint64_t transceivers() const noexcept;
  [[nodiscard]] double optics_watts() const noexcept;  // every transceiver at once
};

// "NIC", "leaf-spine", "spine-core", "local", "global", "torus", "scale-up".
[[nodiscard]] std::string link_class_label(LinkClass link_class);

// The nominal port speed of a link class's cables in this cluster, bytes/s (the slower end; NIC links
// without the NIC's efficiency).
[[nodiscard]] double nominal_port_bandwidth(const ClusterSpec& cluster, LinkClass link_class);

// The slowest of `catalog` at least as fast as `port_bandwidth`, or null.
[[nodiscard]] const OpticsSpec* optics_for(const std::vector<OpticsSpec>& catalog, double port_bandwidth) noexcept;

[[nodiscard]] Cabling plan_cabling(const Topology& topology, const ClusterSpec& cluster);

}  // namespace rackscale::models::network
