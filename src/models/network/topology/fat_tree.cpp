#include "models/network/topology/fat_tree.hpp"

#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "models/network/topology/fat_tree_router.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/network/topology/names.hpp"
#include "models/network/topology/network_racks.hpp"
#include "models/network/topology/scale_out_cables.hpp"
#include "models/network/topology/scale_up.hpp"

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
    for (std::uint32_t j = 0; j < shape.leaf_up; ++j) racks.add(SwitchRole::spine, shape.spine_up + leaves);
  }
  racks.begin_group();
  for (std::uint32_t c = 0; c < shape.cores(); ++c) racks.add(SwitchRole::core, shape.pods);
}

void connect_tree(TopologyBuilder& builder, const FatTreeShape& shape, const ComputeLayout& layout,
                  std::uint32_t nic_port, const ScaleOutCables& cables) {
  for (std::uint32_t device = 0; device < shape.endpoints; ++device) {
    const std::uint32_t leaf = shape.leaf_of(device);
    builder.connect({layout.device_node(device), nic_port},
                    {shape.leaf_node(leaf), shape.leaf_up + shape.slot_of(device)}, LinkClass::nic,
                    cables.nic_bandwidth, cables.device_to_switch, cables.switch_to_device);
  }
  for (std::uint32_t leaf = 0; leaf < shape.leaves; ++leaf) {
    const std::uint32_t pod = leaf / shape.leaves_per_pod;
    for (std::uint32_t j = 0; j < shape.leaf_up; ++j) {
      builder.connect({shape.leaf_node(leaf), j}, {shape.spine_node(pod, j), shape.spine_up + leaf % shape.leaves_per_pod},
                      LinkClass::leaf_spine, cables.switch_bandwidth, cables.switch_to_switch, cables.switch_to_switch);
    }
  }
  for (std::uint32_t pod = 0; pod < shape.pods && shape.tiers == 3; ++pod) {
    for (std::uint32_t plane = 0; plane < shape.leaf_up; ++plane) {
      for (std::uint32_t c = 0; c < shape.spine_up; ++c) {
        builder.connect({shape.spine_node(pod, plane), c}, {shape.core_node(plane, c), pod}, LinkClass::spine_core,
                        cables.switch_bandwidth, cables.switch_to_switch, cables.switch_to_switch);
      }
    }
  }
}

std::string describe(const FatTreeShape& shape) {
  std::string text = fmt::format("{}-tier {}fat tree of {}-port switches", shape.tiers, shape.rail ? "rail-optimized " : "",
                                 shape.radix);
  if (shape.rail) text += fmt::format(" (rail groups of {} nodes, a leaf per rail)", shape.nodes_per_group);
  text += fmt::format(", oversubscription {}:1", shape.leaf_oversubscription);
  if (shape.tiers == 3) {
    text += fmt::format(" / {}:1: {} leaves, {} spines and {} cores in {} pods", shape.spine_oversubscription,
                        shape.leaves, shape.spines(), shape.cores(), shape.pods);
  } else {
    text += fmt::format(": {} leaves and {} spines", shape.leaves, shape.spines());
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
  const std::uint32_t nic_port = scale_up_ports(cluster.scale_up);

  TopologyBuilder builder;
  const std::size_t switches = std::size_t{shape.leaves} + shape.spines() + shape.cores();
  builder.reserve(layout.node_count() + switches,
                  layout.rack_count() + switches / cluster.scale_out.switches_per_rack + shape.pods + 1, layout.devices);
  add_compute_racks(builder, layout, nic_port + 1);
  add_switches(builder, shape, cluster.scale_out.switches_per_rack);
  connect_scale_up(builder, layout, cluster.scale_up);
  connect_tree(builder, shape, layout, nic_port, cables);

  std::string description = fmt::format("{}; {}; routing {}", describe(shape), describe_compute(cluster, layout, true),
                                        name_of(routing));
  return builder.finish(
      std::make_unique<FatTreeRouter>(shape, layout, cluster.scale_up.kind, routing == RoutingMode::spray),
      std::move(description));
}

}  // namespace rackscale::models::network
