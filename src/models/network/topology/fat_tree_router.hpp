#pragma once
// Up/down routing on a (rail-optimized) fat tree: a chunk climbs only as high as the lowest switch
// that reaches its destination (the leaf, the pod's spines, or a core), choosing among the uplinks by
// its tag's entropy, then descends towards the destination's leaf, choosing among parallel cables by
// the entropy's high bits (a single switch delivers at once).
#include "models/network/router.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/network/topology/scale_up.hpp"

namespace rackscale::models::network {

class FatTreeRouter final : public Router {
 public:
  // spray: entropy per chunk; otherwise (ecmp) per flow.
  FatTreeRouter(const FatTreeShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up, bool spray) noexcept;

  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override;
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override;
  [[nodiscard]] std::string_view name() const override;
  // Within a scale-up domain, or under one leaf: the only choices by entropy are a leaf's uplinks and
  // the parallel cables down from a spine or a core, which such a route never meets.
  [[nodiscard]] bool flow_free(std::uint32_t src, std::uint32_t dst) const override;

 private:
  FatTreeShape shape_;
  ComputeHop compute_;
  bool spray_;
};

}  // namespace rackscale::models::network
