#include "models/network/topology/torus.hpp"

#include <memory>
#include <string>

#include <fmt/format.h>

#include "models/network/topology/names.hpp"
#include "models/network/topology/topology_builder.hpp"
#include "models/network/topology/torus_router.hpp"
#include "models/network/topology/torus_shape.hpp"

namespace rackscale::models::network {

Topology build_torus(const ClusterSpec& cluster, RoutingMode routing) {
  require_routing(routing, {RoutingMode::dimension_order}, "a torus3d");
  const TorusShape shape = plan_torus(cluster);
  const TorusSpec& spec = cluster.scale_out.torus;

  TopologyBuilder builder;
  builder.reserve(shape.devices(), shape.rack_count(), shape.devices());
  for (NodeId node = 0; node < shape.devices(); ++node) {
    if (node % shape.rack_size() == 0) builder.begin_rack(RackKind::compute);
    builder.add_device(shape.device_at(node), shape.port_count());
  }
  for (std::uint32_t device = 0; device < shape.devices(); ++device) {
    const TorusShape::Coord here = shape.coord(device);
    for (std::uint32_t dim = 0; dim < 3; ++dim) {
      const std::uint32_t size = shape.dims[dim];
      // A ring of 2 is one cable, made from its 0 end; a longer ring has one cable per device, to its + side.
      if (size < 2 || (size == 2 && here[dim] == 1)) continue;
      TorusShape::Coord next = here;
      next[dim] = (here[dim] + 1) % size;
      builder.connect({shape.device_node(device), shape.port(dim, true)},
                      {shape.device_node(shape.device(next)), shape.port(dim, false)}, LinkClass::torus,
                      spec.link_bandwidth, spec.link_latency, spec.link_latency);
    }
  }
  std::string description = fmt::format(
      "3D torus of {} x {} x {} = {} devices ({} nodes x {}) with wrap-around links, in {} racks of {} x {} x {}; "
      "routing {}",
      shape.dims[0], shape.dims[1], shape.dims[2], shape.devices(), cluster.nodes, cluster.devices_per_node,
      shape.rack_count(), shape.rack_dims[0], shape.rack_dims[1], shape.rack_dims[2], name_of(routing));
  return builder.finish(std::make_unique<TorusRouter>(shape), std::move(description));
}

}  // namespace rackscale::models::network
