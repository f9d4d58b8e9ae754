#pragma once
// What every network LP on a rank shares: the (immutable) topology and network settings, the fabric
// policy, the rank's port counters, its path-latency cache and the replica mirror.
#include <memory>

#include "models/network/cluster_spec.hpp"
#include "models/network/fabric.hpp"
#include "models/network/path_latency_cache.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/replica_mirror.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct NetworkContext {
  const Topology* topology = nullptr;
  NetworkSpec spec;
  PortCounters counters;
  PathLatencyCache latencies;  // zero-byte messages, closed-form collectives
  std::unique_ptr<Fabric> fabric;
  // Which devices act for others (one-replica runs); the identity otherwise.
  ReplicaMirror mirror;

  NetworkContext(const Topology& topo, const NetworkSpec& network_spec, ReplicaMirror replica_mirror = {})
      : topology(&topo), spec(network_spec), counters(topo.ports.size()), latencies(topo), mirror(replica_mirror) {
    fabric = make_fabric(*this);
  }
};

}  // namespace rackscale::models::network
