#pragma once
// Where devices and scale-up switches sit in the node numbering. Compute rack r holds the devices
// [r*D, r*D + D) (the last rack may hold fewer), then one NVSwitch node per scale-up domain of those
// devices; so device <-> node id is arithmetic, and routers carry this small struct instead of tables.
#include <algorithm>
#include <cstdint>

#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct ComputeLayout {
  std::uint32_t devices = 0;
  std::uint32_t devices_per_rack = 1;  // D; a multiple of domain_devices
  std::uint32_t domain_devices = 1;    // devices sharing a scale-up fabric; 1 when there is none
  bool domain_switches = false;        // an NVSwitch node per domain

  [[nodiscard]] std::uint32_t switches_per_rack() const noexcept {
    return domain_switches ? devices_per_rack / domain_devices : 0;
  }
  [[nodiscard]] std::uint32_t rack_stride() const noexcept { return devices_per_rack + switches_per_rack(); }
  [[nodiscard]] std::uint32_t rack_count() const noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{devices} + devices_per_rack - 1) / devices_per_rack);
  }
  [[nodiscard]] std::uint32_t devices_in_rack(std::uint32_t rack) const noexcept {
    return std::min(devices_per_rack, devices - rack * devices_per_rack);
  }
  [[nodiscard]] std::uint32_t switches_in_rack(std::uint32_t rack) const noexcept {
    return domain_switches ? devices_in_rack(rack) / domain_devices : 0;
  }
  [[nodiscard]] std::uint32_t domain_count() const noexcept { return devices / domain_devices; }
  // Compute nodes come first in the numbering, so this is also the first scale-out switch's id.
  [[nodiscard]] NodeId node_count() const noexcept { return devices + (domain_switches ? domain_count() : 0); }

  [[nodiscard]] NodeId device_node(std::uint32_t device) const noexcept {
    const std::uint32_t rack = device / devices_per_rack;
    return rack * rack_stride() + device % devices_per_rack;
  }
  // The device at compute node `node`, or kNoDevice for a scale-up switch.
  [[nodiscard]] std::uint32_t device_at(NodeId node) const noexcept {
    const std::uint32_t stride = rack_stride();
    const std::uint32_t rack = node / stride;
    const std::uint32_t offset = node % stride;
    return offset < devices_in_rack(rack) ? rack * devices_per_rack + offset : kNoDevice;
  }
  [[nodiscard]] NodeId domain_switch_node(std::uint32_t domain) const noexcept {
    const std::uint32_t first_device = domain * domain_devices;
    const std::uint32_t rack = first_device / devices_per_rack;
    return rack * rack_stride() + devices_in_rack(rack) + (first_device % devices_per_rack) / domain_devices;
  }
  [[nodiscard]] bool same_domain(std::uint32_t a, std::uint32_t b) const noexcept {
    return a / domain_devices == b / domain_devices;
  }
};

}  // namespace rackscale::models::network
