#include "models/network/topology/torus_router.hpp"

namespace rackscale::models::network {

RouteTag TorusRouter::start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow, std::uint64_t /*chunk*/) const {
  return RouteTag{route_hash(src, dst, flow)};
}

std::uint16_t TorusRouter::next_port(std::uint32_t at, std::uint32_t dst, RouteTag& /*tag*/) const {
  const TorusShape::Coord here = shape_.coord(shape_.device_at(at));
  const TorusShape::Coord there = shape_.coord(shape_.device_at(dst));
  for (std::uint32_t dim = 0; dim < 3; ++dim) {
    const std::uint32_t size = shape_.dims[dim];
    const std::uint32_t ahead = (there[dim] + size - here[dim]) % size;
    if (ahead == 0) continue;
    return static_cast<PortIndex>(shape_.port(dim, ahead <= size - ahead));
  }
  return 0;  // at == dst: callers never ask
}

}  // namespace rackscale::models::network
