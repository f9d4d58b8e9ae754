#include "models/network/topology/fat_tree_shape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {
namespace {

constexpr std::string_view kOversubscription = "cluster.scale_out.fat_tree.oversubscription";

// Ports down and up of a switch of `radix` ports at `oversubscription` = down : up.
std::pair<std::uint32_t, std::uint32_t> split_ports(std::uint32_t radix, double oversubscription, std::string_view tier) {
  if (!(oversubscription > 0) || !std::isfinite(oversubscription)) {
    spec_error(kOversubscription, "the {} oversubscription (down : up) must be a positive number; got {}", tier,
               oversubscription);
  }
  const double down = static_cast<double>(radix) * oversubscription / (1 + oversubscription);
  const auto down_ports = static_cast<std::uint32_t>(std::lround(down));
  if (down_ports < 1 || down_ports >= radix) {
    spec_error(kOversubscription, "{}:1 at the {}s of {}-port switches leaves {} ports down and {} up; each needs at least 1",
               oversubscription, tier, radix, down_ports, radix - std::min(down_ports, radix));
  }
  return {down_ports, radix - down_ports};
}

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) { return static_cast<std::uint32_t>((a + b - 1) / b); }

}  // namespace

FatTreeShape plan_fat_tree(const ClusterSpec& cluster, NodeId first_node) {
  const ScaleOutSpec& out = cluster.scale_out;
  const FatTreeSpec& spec = out.fat_tree;
  FatTreeShape shape;
  shape.first_node = first_node;
  shape.rail = out.kind == ScaleOutKind::rail_fat_tree;
  const std::string_view kind = shape.rail ? "rail fat tree" : "fat tree";

  shape.radix = out.switch_spec.radix;
  if (shape.radix < 2 || shape.radix > std::numeric_limits<PortIndex>::max()) {
    spec_error("cluster.scale_out.switch.radix", "a {} needs switches of 2 to {} ports; got {}", kind,
               std::numeric_limits<PortIndex>::max(), shape.radix);
  }
  if (spec.tiers != 2 && spec.tiers != 3) {
    spec_error("cluster.scale_out.fat_tree.tiers", "expected 2 or 3; got {}", spec.tiers);
  }
  shape.tiers = spec.tiers;
  shape.leaf_oversubscription = spec.oversubscription[0];
  std::tie(shape.leaf_down, shape.leaf_up) = split_ports(shape.radix, spec.oversubscription[0], "leaf");
  if (shape.tiers == 3) {
    shape.spine_oversubscription = spec.oversubscription[1];
    std::tie(shape.spine_down, shape.spine_up) = split_ports(shape.radix, spec.oversubscription[1], "spine");
  }

  shape.endpoints = static_cast<std::uint32_t>(cluster.devices());
  shape.nodes = cluster.nodes;
  const std::uint64_t k = shape.radix;
  if (shape.rail) {
    shape.rails = cluster.nics_per_node;
    shape.nodes_per_group = spec.nodes_per_rail_group;
    if (shape.nodes_per_group < 1 || shape.nodes_per_group > shape.leaf_down) {
      spec_error("cluster.scale_out.fat_tree.nodes_per_rail_group",
                 "a rail leaf has {} ports for nodes ({}-port switch at oversubscription {}:1), so a rail group "
                 "holds 1 to {} nodes; got {}",
                 shape.leaf_down, shape.radix, shape.leaf_oversubscription, shape.leaf_down, shape.nodes_per_group);
    }
    shape.leaves = ceil_div(shape.nodes, shape.nodes_per_group) * shape.rails;
  } else {
    shape.leaves = ceil_div(shape.endpoints, shape.leaf_down);
  }

  if (shape.tiers == 2) {
    if (shape.leaves > shape.radix) {
      if (shape.rail) {
        spec_error("cluster.scale_out.fat_tree.tiers",
                   "a 2-tier rail fat tree of radix {} holds at most {} rail groups of {} nodes with {} NICs each "
                   "({} nodes); got {} nodes (use tiers: 3 or a larger radix)",
                   k, k / shape.rails, shape.nodes_per_group, shape.rails, k / shape.rails * shape.nodes_per_group,
                   shape.nodes);
      }
      spec_error("cluster.scale_out.fat_tree.tiers",
                 "a 2-tier fat tree of radix {} holds at most {} NICs at oversubscription {}:1; got {} (use tiers: 3, "
                 "a larger radix or more oversubscription)",
                 k, k * shape.leaf_down, shape.leaf_oversubscription, shape.endpoints);
    }
    shape.leaves_per_pod = shape.leaves;
    shape.pods = 1;
    return shape;
  }

  if (shape.rail) {
    // Whole rail groups form a pod, so that a group's rails share spines.
    const std::uint32_t groups_per_pod = shape.spine_down / shape.rails;
    if (groups_per_pod == 0) {
      spec_error(kOversubscription,
                 "a 3-tier rail fat tree puts whole rail groups ({} leaves each) in a pod, but {}:1 at the spines of "
                 "{}-port switches leaves only {} ports down",
                 shape.rails, shape.spine_oversubscription, shape.radix, shape.spine_down);
    }
    shape.leaves_per_pod = groups_per_pod * shape.rails;
  } else {
    shape.leaves_per_pod = shape.spine_down;
  }
  shape.pods = ceil_div(shape.leaves, shape.leaves_per_pod);
  if (shape.pods > shape.radix) {
    if (shape.rail) {
      const std::uint64_t groups = k * (shape.leaves_per_pod / shape.rails);
      spec_error("cluster.scale_out.fat_tree.tiers",
                 "a 3-tier rail fat tree of radix {} at oversubscription {}:1 / {}:1 holds at most {} rail groups of {} "
                 "nodes ({} nodes); got {} nodes (use a larger radix or more oversubscription)",
                 k, shape.leaf_oversubscription, shape.spine_oversubscription, groups, shape.nodes_per_group,
                 groups * shape.nodes_per_group, shape.nodes);
    }
    spec_error("cluster.scale_out.fat_tree.tiers",
               "a 3-tier fat tree of radix {} holds at most {} NICs at oversubscription {}:1 / {}:1; got {} (use a larger "
               "radix or more oversubscription)",
               k, k * shape.spine_down * shape.leaf_down, shape.leaf_oversubscription, shape.spine_oversubscription,
               shape.endpoints);
  }
  return shape;
}

}  // namespace rackscale::models::network
