#include "models/network/topology/fat_tree.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "models/network/topology/fat_tree_router.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/network/topology/names.hpp"
#include "models/network/topology/network_racks.hpp"
#include "models/network/topology/scale_out_cables.hpp"
#include "models/network/topology/scale_up.hpp"
#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {
namespace {

void add_switches(TopologyBuilder& builder, const FatTreeShape& shape, std::uint32_t switches_per_rack) {
  NetworkRacks racks(builder, switches_per_rack);
  for (std::uint32_t pod = 0; pod < shape.pods; ++pod) {
    racks.begin_group();
    const std::uint32_t leaves = shape.leaves_in_pod(pod);
    for (std::uint32_t i = 0; i < leaves; ++i) {
      racks.add(SwitchRole::leaf, shape.leaf_up + shape.nic_ports(pod * shape.leaves_per_pod + i));
    }
    for (std::uint32_t j = 0; j < shape.spines_per_pod; ++j) racks.add(SwitchRole::spine, shape.spine_ports(pod, j));
  }
  racks.begin_group();
  for (std::uint32_t c = 0; c < shape.cores; ++c) racks.add(SwitchRole::core, shape.core_ports(c));
}

// Figures of the cables between two switch tiers: the slower port sets the rate, and each direction
// ends at the receiving switch's forwarding latency.
struct TierCable {
  double bandwidth;
  pdes::SimTime up;    // lower tier -> upper tier
  pdes::SimTime down;  // upper tier -> lower tier
};
TierCable tier_cable(const ClusterSpec& cluster, std::uint32_t lower) {
  const SwitchSpec& low = cluster.scale_out.tier_switch(lower);
  const SwitchSpec& high = cluster.scale_out.tier_switch(lower + 1);
  const pdes::SimTime cable = cluster.scale_out.cable_latency;
  return {std::min(low.port_bandwidth, high.port_bandwidth), cable + high.latency, cable + low.latency};
}

void connect_tree(TopologyBuilder& builder, const FatTreeShape& shape, const ComputeLayout& layout,
                  std::uint32_t nic_port, const ScaleOutCables& cables, const ClusterSpec& cluster) {
  for (std::uint32_t device = 0; device < shape.endpoints; ++device) {
    const std::uint32_t leaf = shape.leaf_of(device);
    builder.connect({layout.device_node(device), nic_port},
                    {shape.leaf_node(leaf), shape.leaf_up + shape.slot_of(device)}, LinkClass::nic,
                    cables.nic_bandwidth, cables.device_to_switch, cables.switch_to_device);
  }
  const TierCable leaf_spine = tier_cable(cluster, 0);
  for (std::uint32_t leaf = 0; leaf < shape.leaves && shape.tiers >= 2; ++leaf) {
    const std::uint32_t pod = shape.pod_of_leaf(leaf);
    const std::uint32_t local = leaf % shape.leaves_per_pod;
    for (std::uint32_t i = 0; i < shape.leaf_up; ++i) {
      const std::uint32_t spine = i % shape.spines_per_pod;
      const std::uint32_t links = shape.links_to_spine(spine);
      builder.connect({shape.leaf_node(leaf), i},
                      {shape.spine_node(pod, spine), shape.spine_up + local * links + i / shape.spines_per_pod},
                      LinkClass::leaf_spine, leaf_spine.bandwidth, leaf_spine.up, leaf_spine.down);
    }
  }
  if (shape.tiers < 3) return;
  const TierCable spine_core = tier_cable(cluster, 1);
  for (std::uint32_t pod = 0; pod < shape.pods; ++pod) {
    for (std::uint32_t spine = 0; spine < shape.spines_per_pod; ++spine) {
      for (std::uint32_t c = 0; c < shape.spine_up; ++c) {
        const std::uint32_t uplink = spine * shape.spine_up + c;  // among the pod's
        const std::uint32_t core = uplink % shape.cores;
        builder.connect({shape.spine_node(pod, spine), c},
                        {shape.core_node(core), pod * shape.links_to_pod(core) + uplink / shape.cores},
                        LinkClass::spine_core, spine_core.bandwidth, spine_core.up, spine_core.down);
      }
    }
  }
}

std::string describe(const FatTreeShape& shape) {
  if (shape.tiers == 1) return fmt::format("a single {}-port switch for {} NICs", shape.radix[0], shape.endpoints);
  std::string radix = fmt::format("{}-port", shape.radix[0]);
  if (shape.radix[1] != shape.radix[0] || (shape.tiers == 3 && shape.radix[2] != shape.radix[0])) {
    radix = fmt::format("{}/{}", shape.radix[0], shape.radix[1]);
    if (shape.tiers == 3) radix += fmt::format("/{}", shape.radix[2]);
    radix += "-port";
  }
  std::string text =
      fmt::format("{}-tier {}fat tree of {} switches", shape.tiers, shape.rail ? "rail-optimized " : "", radix);
  if (shape.rail) text += fmt::format(" (rail groups of {} nodes, a leaf per rail)", shape.nodes_per_group);
  text += fmt::format(", oversubscription {}:1", shape.leaf_oversubscription);
  if (shape.tiers == 3) text += fmt::format(" / {}:1", shape.spine_oversubscription);
  const std::uint32_t most_links = shape.links_to_spine(0);
  const auto count = [](std::uint32_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  text += fmt::format(": {} ({} NIC ports, {} up), {}", count(shape.leaves, "leaf", "leaves"), shape.leaf_down,
                      shape.leaf_up, count(shape.spines(), "spine", "spines"));
  if (shape.tiers == 3) text += fmt::format(" ({} per pod)", shape.spines_per_pod);
  if (most_links > 1) {
    text += fmt::format(" with {}{} cables to each leaf", shape.links_to_spine(shape.spines_per_pod - 1) == most_links
                                                              ? ""
                                                              : fmt::format("{}-", most_links - 1),
                        most_links);
  }
  if (shape.tiers == 3) {
    text += fmt::format(", {} ({} up per spine) in {} pods of {} leaves", count(shape.cores, "core", "cores"),
                        shape.spine_up, shape.pods, shape.leaves_per_pod);
    if (shape.pod_group_endpoints > 0) {
      text += fmt::format(" (sized to hold whole groups of {} NICs of the job)", shape.pod_group_endpoints);
    }
  }
  return text;
}

}  // namespace

Topology build_fat_tree(const ClusterSpec& cluster, RoutingMode routing) {
  const std::string_view kind = cluster.scale_out.kind == ScaleOutKind::rail_fat_tree ? "rail fat tree" : "fat tree";
  require_routing(routing, {RoutingMode::ecmp, RoutingMode::spray}, fmt::format("a {}", kind));
  const ComputeLayout layout = plan_compute(cluster);
  const ScaleOutCables cables = plan_scale_out_cables(cluster, kind);
  const FatTreeShape shape = plan_fat_tree(cluster, layout.node_count());
  for (const auto& [sw, key] : {std::pair{&cluster.scale_out.fat_tree.spine_switch, "spine_switch"},
                                std::pair{&cluster.scale_out.fat_tree.core_switch, "core_switch"}}) {
    if (*sw && (!((*sw)->port_bandwidth > 0) || !std::isfinite((*sw)->port_bandwidth))) {
      spec_error(fmt::format("cluster.scale_out.fat_tree.{}.port_bandwidth", key),
                 "expected a positive bandwidth in bytes/s; got {}", (*sw)->port_bandwidth);
    }
  }
  const std::uint32_t nic_port = scale_up_ports(cluster.scale_up);

  TopologyBuilder builder;
  const std::size_t switches = shape.switches();
  builder.reserve(layout.node_count() + switches,
                  layout.rack_count() + switches / cluster.scale_out.switches_per_rack + shape.pods + 1, layout.devices);
  add_compute_racks(builder, layout, nic_port + 1);
  add_switches(builder, shape, cluster.scale_out.switches_per_rack);
  connect_scale_up(builder, layout, cluster.scale_up);
  connect_tree(builder, shape, layout, nic_port, cables, cluster);

  std::string description = fmt::format("{}; {}; routing {}", describe(shape), describe_compute(cluster, layout, true),
                                        name_of(routing));
  return builder.finish(
      std::make_unique<FatTreeRouter>(shape, layout, cluster.scale_up.kind, routing == RoutingMode::spray),
      std::move(description));
}

}  // namespace rackscale::models::network
