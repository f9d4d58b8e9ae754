#include "models/network/topology/dragonfly_router.hpp"

#include <algorithm>

namespace rackscale::models::network {

DragonflyRouter::DragonflyRouter(const DragonflyShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up,
                                 RoutingMode mode) noexcept
    : shape_(shape), compute_(layout, scale_up), mode_(mode) {}

RouteTag DragonflyRouter::start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow, std::uint64_t chunk) const {
  // Minimal keeps a flow on one path (in order); Valiant and spray balance load chunk by chunk.
  RouteTag tag{mode_ == RoutingMode::minimal ? route_hash(src, dst, flow) : route_hash(src, dst, flow, chunk)};
  if (mode_ != RoutingMode::valiant || shape_.groups < 3) return tag;
  const std::uint32_t src_group = shape_.group_of(compute_.layout().device_at(src));
  const std::uint32_t dst_group = shape_.group_of(compute_.layout().device_at(dst));
  // Traffic inside a group stays minimal: a detour through another group would only add global hops.
  if (src_group == dst_group) return tag;
  // Uniform over the g-2 groups that are neither end, from hash bits the link choices do not use.
  std::uint32_t via = static_cast<std::uint32_t>(route_hash(tag.entropy, 0x56414c49414e54ULL, 0) % (shape_.groups - 2));
  const std::uint32_t low = std::min(src_group, dst_group);
  const std::uint32_t high = std::max(src_group, dst_group);
  if (via >= low) ++via;
  if (via >= high) ++via;
  tag.via = via;
  return tag;
}

std::uint16_t DragonflyRouter::next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const {
  const std::uint32_t dst_device = compute_.layout().device_at(dst);
  if (const auto port = compute_.port(at, dst_device)) return *port;

  const std::uint32_t a = shape_.routers_per_group;
  const std::uint32_t group = (at - shape_.first_node) / a;
  const std::uint32_t router = (at - shape_.first_node) % a;
  if (tag.via != kNoVia && tag.via == group) {
    tag.via = kNoVia;
    tag.phase = 1;
  }
  const std::uint32_t target = tag.via != kNoVia ? tag.via : shape_.group_of(dst_device);
  if (target == group) {
    const std::uint32_t dst_router = shape_.router_of(dst_device);
    if (dst_router == router) return static_cast<PortIndex>(shape_.terminal_of(dst_device));
    return static_cast<PortIndex>(shape_.local_port(group, router, dst_router));
  }
  // Each leg of a Valiant route picks its global link from its own half of the entropy.
  const std::uint64_t entropy = tag.phase == 0 ? tag.entropy : tag.entropy >> 32;
  const std::uint32_t offset = (target + shape_.groups - group) % shape_.groups;
  const auto instance = static_cast<std::uint32_t>(entropy % shape_.links_per_pair);
  const std::uint32_t slot = shape_.global_slot(offset, instance);
  const std::uint32_t owner = slot / shape_.global_ports;
  if (owner == router) return static_cast<PortIndex>(shape_.global_port(group, slot));
  return static_cast<PortIndex>(shape_.local_port(group, router, owner));
}

std::string_view DragonflyRouter::name() const {
  switch (mode_) {
    case RoutingMode::valiant: return "dragonfly Valiant (via a random group)";
    case RoutingMode::spray: return "dragonfly minimal, sprayed per chunk";
    default: return "dragonfly minimal";
  }
}

}  // namespace rackscale::models::network
