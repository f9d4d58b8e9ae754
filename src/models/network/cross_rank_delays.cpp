#include "models/network/cross_rank_delays.hpp"

#include <algorithm>

namespace rackscale::models::network {
namespace {
bool in_compute_rack(const Topology& topology, NodeId node) {
  return topology.racks[topology.nodes[node].rack].kind == RackKind::compute;
}
}  // namespace

CrossRankDelays::CrossRankDelays(const Topology& topology, Fidelity fidelity) : topology_(&topology) {
  if (fidelity != Fidelity::analytical || topology.racks.empty()) return;
  // The argument needs every event's two ends in compute racks: devices there, as the builders put them.
  for (const NodeId device : topology.devices)
    if (!in_compute_rack(topology, device)) return;
  pdes::SimTime out_of_compute = pdes::kNever;
  pdes::SimTime into_compute = pdes::kNever;
  for (NodeId n = 0; n < topology.nodes.size(); ++n) {
    const bool from_compute = in_compute_rack(topology, n);
    for (const Port& port : topology.ports_of(n)) {
      const bool to_compute = in_compute_rack(topology, port.peer);
      if (from_compute && !to_compute) out_of_compute = std::min(out_of_compute, port.latency);
      if (!from_compute && to_compute) into_compute = std::min(into_compute, port.latency);
    }
  }
  // No scale-out fabric: every path between racks is a cable between compute racks.
  if (out_of_compute == pdes::kNever || into_compute == pdes::kNever) return;
  floor_ = pdes::saturating_add(out_of_compute, into_compute);
}

pdes::SimTime CrossRankDelays::of(NodeId node, const Port& port) const noexcept {
  if (floor_ == 0 || (in_compute_rack(*topology_, node) && in_compute_rack(*topology_, port.peer)))
    return port.latency;
  return std::max(port.latency, floor_);
}

}  // namespace rackscale::models::network
