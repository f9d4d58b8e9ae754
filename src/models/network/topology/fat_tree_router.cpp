#include "models/network/topology/fat_tree_router.hpp"

namespace rackscale::models::network {

FatTreeRouter::FatTreeRouter(const FatTreeShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up,
                             bool spray) noexcept
    : shape_(shape), compute_(layout, scale_up), spray_(spray) {}

RouteTag FatTreeRouter::start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow, std::uint64_t chunk) const {
  return RouteTag{spray_ ? route_hash(src, dst, flow, chunk) : route_hash(src, dst, flow)};
}

std::uint16_t FatTreeRouter::next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const {
  const std::uint32_t dst_device = compute_.layout().device_at(dst);
  if (const auto port = compute_.port(at, dst_device)) return *port;

  const std::uint32_t dst_leaf = shape_.leaf_of(dst_device);
  const std::uint32_t pod_of_dst = shape_.pod_of_leaf(dst_leaf);
  // Going down, the parallel cables to the next switch are chosen with the entropy's high bits, which
  // the choices going up do not use: 16 bits at the core, the next 16 at the spine.
  const auto down = static_cast<std::uint32_t>(tag.entropy >> 32);
  if (at >= shape_.core_first_node()) {
    const std::uint32_t core = at - shape_.core_first_node();
    const std::uint32_t links = shape_.links_to_pod(core);
    return static_cast<PortIndex>(pod_of_dst * links + (down & 0xFFFFu) % links);
  }

  const std::uint32_t offset = at - shape_.first_node;
  const std::uint32_t pod = offset / shape_.pod_stride();
  const std::uint32_t index = offset % shape_.pod_stride();
  const std::uint32_t leaves_here = shape_.leaves_in_pod(pod);
  if (index < leaves_here) {
    const std::uint32_t leaf = pod * shape_.leaves_per_pod + index;
    if (leaf == dst_leaf) return static_cast<PortIndex>(shape_.leaf_up + shape_.slot_of(dst_device));
    return static_cast<PortIndex>(tag.entropy % shape_.leaf_up);
  }
  if (pod_of_dst == pod) {
    const std::uint32_t links = shape_.links_to_spine(index - leaves_here);
    const std::uint32_t local = dst_leaf - pod * shape_.leaves_per_pod;
    return static_cast<PortIndex>(shape_.spine_up + local * links + (down >> 16) % links);
  }
  // Divided by the leaf's choices first, so the core choice does not repeat the spine choice.
  return static_cast<PortIndex>(tag.entropy / shape_.leaf_up % shape_.spine_up);
}

bool FatTreeRouter::flow_free(std::uint32_t src, std::uint32_t dst) const {
  const ComputeLayout& layout = compute_.layout();
  const std::uint32_t src_device = layout.device_at(src);
  const std::uint32_t dst_device = layout.device_at(dst);
  if (src_device == kNoDevice || dst_device == kNoDevice) return false;
  // Without a scale-up fabric a domain is one device, so only a device and itself share one.
  return layout.same_domain(src_device, dst_device) || shape_.leaf_of(src_device) == shape_.leaf_of(dst_device);
}

std::string_view FatTreeRouter::name() const {
  if (shape_.rail) return spray_ ? "rail fat tree up/down, sprayed per chunk" : "rail fat tree up/down, ECMP per flow";
  return spray_ ? "fat tree up/down, sprayed per chunk" : "fat tree up/down, ECMP per flow";
}

}  // namespace rackscale::models::network
