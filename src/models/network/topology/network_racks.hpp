#pragma once
// Fills network racks with switches: `switches_per_rack` to a rack, and a new rack for each group of
// related switches (a fat-tree pod, the cores, a dragonfly group), so that a rack never mixes groups.
#include <cstdint>

#include "models/network/topology/topology_builder.hpp"

namespace rackscale::models::network {

class NetworkRacks {
 public:
  NetworkRacks(TopologyBuilder& builder, std::uint32_t switches_per_rack) noexcept
      : builder_(builder), switches_per_rack_(switches_per_rack) {}

  void begin_group() noexcept { in_rack_ = switches_per_rack_; }
  NodeId add(SwitchRole role, std::uint32_t port_count) {
    if (in_rack_ == switches_per_rack_) {
      builder_.begin_rack(RackKind::network);
      in_rack_ = 0;
    }
    ++in_rack_;
    return builder_.add_switch(role, port_count);
  }

 private:
  TopologyBuilder& builder_;
  std::uint32_t switches_per_rack_;
  std::uint32_t in_rack_ = 0;
};

}  // namespace rackscale::models::network
