#pragma once
// Up/down routing on a (rail-optimized) fat tree: a chunk climbs only as high as the lowest switch
// that reaches its destination (the leaf, the pod's spines, or a core), choosing among the uplinks by
// its tag's entropy, then descends towards the destination's leaf, choosing among parallel cables by
// the entropy's high bits (a single switch delivers at once).
#include <cstdint>
#include <vector>

#include "models/network/router.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/network/topology/scale_up.hpp"

namespace rackscale::models::network {

class FatTreeRouter final : public Router {
 public:
  // spray: entropy per chunk; otherwise (ecmp) per flow.
  FatTreeRouter(const FatTreeShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up, bool spray);

  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override;
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override;
  [[nodiscard]] std::string_view name() const override;
  // Within a scale-up domain, or under one leaf: the only choices by entropy are a leaf's uplinks and
  // the parallel cables down from a spine or a core, which such a route never meets.
  [[nodiscard]] bool flow_free(std::uint32_t src, std::uint32_t dst) const override;
  // What next_port reads of the entropy on the pair's route, each part reduced to the choice it makes:
  // the leaf's uplink, then (between pods) the spine's uplink and the core's cable down to the pod, and
  // the spine's cable down to the leaf. A pair between leaves of one pod has leaf_up x (cables from a
  // spine to a leaf) keys at most, whatever the number of flows.
  [[nodiscard]] std::uint64_t path_key(std::uint32_t src, std::uint32_t dst, std::uint64_t flow) const override;

 private:
  FatTreeShape shape_;
  ComputeHop compute_;
  bool spray_;
  // The parallel cables down from a spine to a leaf (from a core to a pod) differ by at most one between
  // spines (cores); the entropy's 16 bits for that choice, reduced modulo the least common multiple of
  // the counts, still make every spine's (core's) choice. 65,536 (no reduction) if the multiple is larger.
  std::uint32_t spine_down_modulus_ = 1;
  std::uint32_t core_down_modulus_ = 1;
  // Where each compute node's device sits, by node id: worked out once, since the analytical fabric asks
  // flow_free and path_key of every message, and the arithmetic (a dozen divisions) cost more than the
  // rest of a path-table hit. 12 bytes per compute node.
  struct Endpoint {
    std::uint32_t domain = kNoDevice;  // scale-up domain; kNoDevice for a scale-up switch node
    std::uint32_t leaf = 0;
    std::uint32_t pod = 0;
  };
  std::vector<Endpoint> endpoints_;
  // Both nodes' endpoints, or nullptr where either is not a device.
  [[nodiscard]] const Endpoint* endpoint(std::uint32_t node) const noexcept {
    return node < endpoints_.size() && endpoints_[node].domain != kNoDevice ? &endpoints_[node] : nullptr;
  }
};

}  // namespace rackscale::models::network
