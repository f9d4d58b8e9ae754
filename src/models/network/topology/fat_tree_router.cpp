#include "models/network/topology/fat_tree_router.hpp"

#include <cstdint>
#include <numeric>

namespace rackscale::models::network {
namespace {
constexpr std::uint64_t kDownChoices = 1u << 16;  // next_port takes 16 bits of entropy per cable down

// The least common multiple of count(0), ..., count(n - 1), or kDownChoices if it exceeds that.
template <class Count>
std::uint32_t down_modulus(std::uint32_t n, Count count) {
  std::uint64_t multiple = 1;
  for (std::uint32_t i = 0; i < n && multiple < kDownChoices; ++i) multiple = std::lcm(multiple, std::uint64_t{count(i)});
  return static_cast<std::uint32_t>(std::min(multiple, kDownChoices));
}
}  // namespace

FatTreeRouter::FatTreeRouter(const FatTreeShape& shape, const ComputeLayout& layout, ScaleUpKind scale_up,
                             bool spray)
    : shape_(shape),
      compute_(layout, scale_up),
      spray_(spray),
      spine_down_modulus_(down_modulus(shape.spines_per_pod, [&](std::uint32_t j) { return shape.links_to_spine(j); })),
      core_down_modulus_(down_modulus(shape.cores, [&](std::uint32_t c) { return shape.links_to_pod(c); })),
      endpoints_(layout.node_count()) {
  for (NodeId node = 0; node < endpoints_.size(); ++node) {
    const std::uint32_t device = layout.device_at(node);
    if (device == kNoDevice) continue;
    const std::uint32_t leaf = shape_.leaf_of(device);
    endpoints_[node] = {device / layout.domain_devices, leaf, shape_.pod_of_leaf(leaf)};
  }
}

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
  const Endpoint* from = endpoint(src);
  const Endpoint* to = endpoint(dst);
  // Without a scale-up fabric a domain is one device, so only a device and itself share one.
  return from != nullptr && to != nullptr && (from->domain == to->domain || from->leaf == to->leaf);
}

std::uint64_t FatTreeRouter::path_key(std::uint32_t src, std::uint32_t dst, std::uint64_t flow) const {
  const Endpoint* from = endpoint(src);
  const Endpoint* to = endpoint(dst);
  if (from == nullptr || to == nullptr) return flow;
  if (from->domain == to->domain || from->leaf == to->leaf) return 0;
  // Keys of 16-bit fields, 1 + the leaf's uplink in the lowest, so no key of such a pair is 0 (not
  // needed for exactness, since a pair's keys all come from one branch here, but clearer in a table).
  const std::uint64_t entropy = start(src, dst, flow, 0).entropy;
  const auto down = static_cast<std::uint32_t>(entropy >> 32);
  const std::uint64_t leaf_up = 1 + entropy % shape_.leaf_up;
  const std::uint64_t spine_down = (down >> 16) % spine_down_modulus_;
  if (from->pod == to->pod) return leaf_up | spine_down << 48;
  if (shape_.spine_up == 0) return flow;  // no tier above the pods' spines: not a route next_port takes
  const std::uint64_t spine_up = entropy / shape_.leaf_up % shape_.spine_up;
  const std::uint64_t core_down = (down & 0xFFFFu) % core_down_modulus_;
  return leaf_up | spine_up << 16 | core_down << 32 | spine_down << 48;
}

std::string_view FatTreeRouter::name() const {
  if (shape_.rail) return spray_ ? "rail fat tree up/down, sprayed per chunk" : "rail fat tree up/down, ECMP per flow";
  return spray_ ? "fat tree up/down, sprayed per chunk" : "fat tree up/down, ECMP per flow";
}

}  // namespace rackscale::models::network
