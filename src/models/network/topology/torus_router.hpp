#pragma once
// Dimension-order routing on a 3D torus: correct x, then y, then z, each the shorter way round the
// ring (ties go +). Deadlock freedom (dateline virtual channels) is the link model's business.
#include "models/network/router.hpp"
#include "models/network/topology/torus_shape.hpp"

namespace rackscale::models::network {

class TorusRouter final : public Router {
 public:
  explicit TorusRouter(const TorusShape& shape) noexcept : shape_(shape) {}

  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override;
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override;
  [[nodiscard]] std::string_view name() const override { return "torus dimension order"; }

 private:
  TorusShape shape_;
};

}  // namespace rackscale::models::network
