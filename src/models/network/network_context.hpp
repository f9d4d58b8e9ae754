#pragma once
// What every network LP on a rank shares: the (immutable) topology and network settings, the fabric
// policy, and the rank's port counters.
#include <memory>

#include "models/network/cluster_spec.hpp"
#include "models/network/fabric.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct NetworkContext {
  const Topology* topology = nullptr;
  NetworkSpec spec;
  PortCounters counters;
  std::unique_ptr<Fabric> fabric;

  NetworkContext(const Topology& topo, const NetworkSpec& network_spec)
      : topology(&topo), spec(network_spec), counters(topo.ports.size()) {
    fabric = make_fabric(*this);
  }
};

}  // namespace rackscale::models::network
