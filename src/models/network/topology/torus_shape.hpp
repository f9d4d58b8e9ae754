#pragma once
// The numbering and port order of a 3D torus, shared by its builder and router.
//
// Device (x, y, z) is index x + X*(y + Y*z). Racks are rack_dims blocks, numbered like the devices
// (block x fastest), and a rack's devices are numbered the same way inside it, so node ids are
// rack-contiguous. A device's ports go dimension by dimension (x, y, z): a dimension of size >= 3 has
// two ports, + then -, size 2 one port (to the only neighbour), size 1 none.
#include <array>
#include <cstdint>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

struct TorusShape {
  using Coord = std::array<std::uint32_t, 3>;
  Coord dims{1, 1, 1};
  Coord rack_dims{1, 1, 1};

  [[nodiscard]] std::uint32_t devices() const noexcept { return dims[0] * dims[1] * dims[2]; }
  [[nodiscard]] std::uint32_t rack_size() const noexcept { return rack_dims[0] * rack_dims[1] * rack_dims[2]; }
  [[nodiscard]] std::uint32_t rack_count() const noexcept { return devices() / rack_size(); }
  [[nodiscard]] static std::uint32_t ports_along(std::uint32_t size) noexcept { return size >= 3 ? 2 : size == 2 ? 1 : 0; }
  [[nodiscard]] std::uint32_t port_count() const noexcept {
    return ports_along(dims[0]) + ports_along(dims[1]) + ports_along(dims[2]);
  }
  // The port towards the + (or -) neighbour along `dim`.
  [[nodiscard]] std::uint32_t port(std::uint32_t dim, bool plus) const noexcept {
    std::uint32_t base = 0;
    for (std::uint32_t d = 0; d < dim; ++d) base += ports_along(dims[d]);
    return base + (plus || dims[dim] == 2 ? 0 : 1);
  }
  [[nodiscard]] Coord coord(std::uint32_t device) const noexcept {
    return {device % dims[0], device / dims[0] % dims[1], device / dims[0] / dims[1]};
  }
  [[nodiscard]] std::uint32_t device(const Coord& c) const noexcept { return c[0] + dims[0] * (c[1] + dims[1] * c[2]); }
  [[nodiscard]] NodeId device_node(std::uint32_t device_index) const noexcept {
    const Coord c = coord(device_index);
    const std::uint32_t rack = c[0] / rack_dims[0] +
                               dims[0] / rack_dims[0] * (c[1] / rack_dims[1] + dims[1] / rack_dims[1] * (c[2] / rack_dims[2]));
    const std::uint32_t local = c[0] % rack_dims[0] + rack_dims[0] * (c[1] % rack_dims[1] + rack_dims[1] * (c[2] % rack_dims[2]));
    return rack * rack_size() + local;
  }
  [[nodiscard]] std::uint32_t device_at(NodeId node) const noexcept {
    const std::uint32_t rack = node / rack_size();
    const std::uint32_t local = node % rack_size();
    const std::uint32_t racks_x = dims[0] / rack_dims[0];
    const std::uint32_t racks_y = dims[1] / rack_dims[1];
    const Coord rack_coord{rack % racks_x, rack / racks_x % racks_y, rack / racks_x / racks_y};
    const Coord local_coord{local % rack_dims[0], local / rack_dims[0] % rack_dims[1], local / rack_dims[0] / rack_dims[1]};
    return device({rack_coord[0] * rack_dims[0] + local_coord[0], rack_coord[1] * rack_dims[1] + local_coord[1],
                   rack_coord[2] * rack_dims[2] + local_coord[2]});
  }
};

// Validates cluster.scale_out.torus (and that there is no scale-up fabric).
[[nodiscard]] TorusShape plan_torus(const ClusterSpec& cluster);

}  // namespace rackscale::models::network
