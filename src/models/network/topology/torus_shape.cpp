#include "models/network/topology/torus_shape.hpp"

#include <cmath>

#include "models/network/topology/names.hpp"
#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {

TorusShape plan_torus(const ClusterSpec& cluster) {
  const TorusSpec& spec = cluster.scale_out.torus;
  if (cluster.scale_up.kind != ScaleUpKind::none) {
    spec_error("cluster.scale_up.kind", "a torus3d links devices directly, so expected none; got {}",
               name_of(cluster.scale_up.kind));
  }
  const std::uint64_t product = std::uint64_t{spec.dims[0]} * spec.dims[1] * spec.dims[2];
  if (product != cluster.devices()) {
    spec_error("cluster.scale_out.torus.dims",
               "x*y*z = {} x {} x {} = {} must equal the device count (nodes x devices_per_node = {} x {} = {})",
               spec.dims[0], spec.dims[1], spec.dims[2], product, cluster.nodes, cluster.devices_per_node,
               cluster.devices());
  }
  for (std::size_t d = 0; d < 3; ++d) {
    if (spec.rack_dims[d] == 0 || spec.dims[d] % spec.rack_dims[d] != 0) {
      spec_error("cluster.scale_out.torus.rack_dims",
                 "racks are blocks that tile the torus, so each of dims {} x {} x {} must be a multiple of rack_dims; "
                 "got {} x {} x {}",
                 spec.dims[0], spec.dims[1], spec.dims[2], spec.rack_dims[0], spec.rack_dims[1], spec.rack_dims[2]);
    }
  }
  if (!(spec.link_bandwidth > 0) || !std::isfinite(spec.link_bandwidth)) {
    spec_error("cluster.scale_out.torus.link_bandwidth", "expected a positive bandwidth in bytes/s; got {}",
               spec.link_bandwidth);
  }
  return TorusShape{spec.dims, spec.rack_dims};
}

}  // namespace rackscale::models::network
