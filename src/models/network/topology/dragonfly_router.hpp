#pragma once
// Dragonfly routing. Minimal: local hop to the router holding a global link to the destination group,
// the global link, local hop to the destination router (at most 1 + 1 + 1 router-to-router hops);
// among the m parallel global links of a pair of groups the tag's entropy picks one. Valiant: first
// minimally to an intermediate group picked from the entropy at start(), then minimally to the
// destination. Spray: minimal, with entropy per chunk instead of per flow.
#include "models/network/router.hpp"
#include "models/network/topology/dragonfly_shape.hpp"
#include "models/network/topology/scale_up.hpp"

namespace rackscale::models::network {

class DragonflyRouter final : public Router {
 public:
  // The tag's `via` while a Valiant chunk heads for its intermediate group; cleared on arrival.
  static constexpr std::uint32_t kNoVia = 0xFFFF'FFFFu;
  // tag.phase: 0 on the way to the intermediate group (or on a minimal route), 1 after reaching it.

  DragonflyRouter(const DragonflyShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up,
                  RoutingMode mode) noexcept;

  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override;
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override;
  [[nodiscard]] std::string_view name() const override;

 private:
  DragonflyShape shape_;
  ComputeHop compute_;
  RoutingMode mode_;
};

}  // namespace rackscale::models::network
