#include "models/network/topology/fat_tree_shape.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {
namespace {

constexpr std::string_view kOversubscription = "cluster.scale_out.fat_tree.oversubscription";
constexpr std::string_view kTiers = "cluster.scale_out.fat_tree.tiers";
constexpr std::string_view kLeavesPerPod = "cluster.scale_out.fat_tree.leaves_per_pod";
constexpr std::string_view kPodEndpoints = "cluster.scale_out.fat_tree.pod_endpoints";
constexpr std::string_view kEndpointsPerLeaf = "cluster.scale_out.fat_tree.endpoints_per_leaf";
constexpr std::string_view kRailGroup = "cluster.scale_out.fat_tree.nodes_per_rail_group";

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

void check_oversubscription(double o, std::string_view tier) {
  if (!(o > 0) || !std::isfinite(o)) {
    spec_error(kOversubscription, "the {} oversubscription (down : up) must be a positive number; got {}", tier, o);
  }
}

// The uplinks that `down` ports need at oversubscription o (down : up): ceil(down / o), at least 1. The
// relative nudge keeps an exact ratio such as 11 / 1.1 from rounding up to 11.
std::uint32_t uplinks_for(std::uint64_t down, double o) {
  const double up = static_cast<double>(down) / o;
  return static_cast<std::uint32_t>(std::max(1.0, std::ceil(up * (1 - 1e-12))));
}

// The most ports a switch of `radix` ports can give downwards at oversubscription o, keeping the
// uplinks they need; 0 when not even one fits.
std::uint32_t most_down_ports(std::uint32_t radix, double o) {
  std::uint32_t down = static_cast<std::uint32_t>(std::min<double>(radix, std::floor(radix * o / (1 + o))) + 1);
  while (down > 0 && std::uint64_t{down} + uplinks_for(down, o) > radix) --down;
  return down;
}

// most_down_ports, or an error naming the oversubscription when a switch cannot serve even one port.
std::uint32_t down_ports(std::uint32_t radix, double o, std::string_view tier) {
  const std::uint32_t down = most_down_ports(radix, o);
  if (down == 0) {
    spec_error(kOversubscription, "{}:1 at the {} of {}-port switches leaves no port down: one port needs {} up",
               o, tier, radix, uplinks_for(1, o));
  }
  return down;
}

std::uint32_t checked_radix(const SwitchSpec& sw, std::string_view key, std::string_view kind) {
  if (sw.radix < 2 || sw.radix > std::numeric_limits<PortIndex>::max()) {
    spec_error(key, "a {} needs switches of 2 to {} ports; got {}", kind, std::numeric_limits<PortIndex>::max(),
               sw.radix);
  }
  return sw.radix;
}

std::string oversubscription_text(const FatTreeShape& shape, bool both) {
  std::string text = fmt::format("{}:1", shape.leaf_oversubscription);
  if (both) text += fmt::format(" / {}:1", shape.spine_oversubscription);
  return text;
}

// Derived pods for a training job: the most leaves, up to `most` (a multiple of `multiple`), whose NICs
// are a whole number of the job's first group span that fits, with the cores still able to reach every
// pod; 0 when no span fits (the pods stay as the radix gives them). Megatron's device order keeps each
// such group on consecutive devices, so a pod boundary that falls between groups cuts none of them.
// Only above an oversubscribed spine tier: at 1:1 a group across pods loses no bandwidth (two more hops
// of latency), and smaller pods would only add spines and cores.
std::uint32_t pod_leaves_for_job(const FatTreeSpec& spec, const FatTreeShape& shape, std::uint32_t leaf_endpoints,
                                 std::uint32_t multiple, std::uint32_t most, std::uint32_t& span_out) {
  if (!(shape.spine_oversubscription > 1)) return 0;
  for (const std::uint32_t span : spec.job_group_endpoints) {
    if (span == 0) continue;
    for (std::uint32_t pod = most; pod >= multiple; pod -= multiple) {
      if (std::uint64_t{pod} * leaf_endpoints % span != 0) continue;
      if (ceil_div(shape.leaves, pod) > shape.radix[2]) break;  // smaller pods only need more core ports
      span_out = span;
      return pod;
    }
  }
  return 0;
}

// Leaves per pod (3 tiers): as set; or the most a spine can serve with one cable per leaf, made a whole
// number of a training job's groups where one fits (pod_leaves_for_job).
std::uint32_t plan_pod_leaves(const FatTreeSpec& spec, FatTreeShape& shape, std::uint32_t spine_down) {
  const std::uint32_t leaf_endpoints = shape.rail ? shape.nodes_per_group : shape.leaf_down;
  const std::uint32_t multiple = shape.rail ? shape.rails : 1;  // rail trees keep whole rail groups in a pod
  std::uint32_t pod = spec.leaves_per_pod;
  if (spec.pod_endpoints > 0) {
    if (spec.pod_endpoints % (std::uint64_t{leaf_endpoints} * multiple) != 0) {
      spec_error(kPodEndpoints, "a pod is made of whole {} of {} NICs each; {} is not a multiple of {}",
                 shape.rail ? "rail groups" : "leaves", std::uint64_t{leaf_endpoints} * multiple, spec.pod_endpoints,
                 std::uint64_t{leaf_endpoints} * multiple);
    }
    const std::uint32_t from_endpoints = spec.pod_endpoints / leaf_endpoints;
    if (pod > 0 && pod != from_endpoints) {
      spec_error(kLeavesPerPod, "{} leaves per pod disagree with pod_endpoints {} ({} leaves of {} NICs)", pod,
                 spec.pod_endpoints, from_endpoints, leaf_endpoints);
    }
    pod = from_endpoints;
  }
  if (pod == 0) {
    pod = spine_down / multiple * multiple;
    if (pod == 0) {
      spec_error(kOversubscription,
                 "a 3-tier rail fat tree puts whole rail groups ({} leaves each) in a pod, but {}:1 at the spines of "
                 "{}-port switches leaves only {} ports down",
                 shape.rails, shape.spine_oversubscription, shape.radix[1], spine_down);
    }
    if (const std::uint32_t aligned =
            pod_leaves_for_job(spec, shape, leaf_endpoints, multiple, pod, shape.pod_group_endpoints)) {
      return aligned;
    }
    return pod;
  }
  if (pod % multiple != 0) {
    spec_error(kLeavesPerPod, "a rail fat tree keeps whole rail groups ({} leaves each) in a pod; got {}", multiple, pod);
  }
  if (pod > spine_down) {
    spec_error(spec.pod_endpoints > 0 ? kPodEndpoints : kLeavesPerPod,
               "a pod of {} leaves needs spines with a port for each leaf and uplinks at {}:1; a spine of {} ports "
               "serves at most {} leaves (use a larger spine_switch or more oversubscription)",
               pod, shape.spine_oversubscription, shape.radix[1], spine_down);
  }
  return pod;
}

[[noreturn]] void too_many_for_two_tiers(const FatTreeShape& shape) {
  if (shape.rail) {
    const std::uint64_t groups = shape.radix[1] / shape.rails;
    spec_error(kTiers,
               "a 2-tier rail fat tree with {}-port spines holds at most {} rail groups of {} nodes with {} NICs each "
               "({} nodes); got {} nodes (use tiers: 3 or a larger radix)",
               shape.radix[1], groups, shape.nodes_per_group, shape.rails, groups * shape.nodes_per_group, shape.nodes);
  }
  spec_error(kTiers,
             "a 2-tier fat tree with {}-port spines holds at most {} leaves of {} NICs ({} NICs) at oversubscription "
             "{}:1; got {} (use tiers: 3, a larger radix or more oversubscription)",
             shape.radix[1], shape.radix[1], shape.leaf_down, std::uint64_t{shape.radix[1]} * shape.leaf_down,
             shape.leaf_oversubscription, shape.endpoints);
}

}  // namespace

FatTreeShape plan_fat_tree(const ClusterSpec& cluster, NodeId first_node) {
  const ScaleOutSpec& out = cluster.scale_out;
  const FatTreeSpec& spec = out.fat_tree;
  FatTreeShape shape;
  shape.first_node = first_node;
  shape.rail = out.kind == ScaleOutKind::rail_fat_tree;
  const std::string_view kind = shape.rail ? "rail fat tree" : "fat tree";
  shape.radix = {checked_radix(out.tier_switch(0), "cluster.scale_out.switch.radix", kind),
                 checked_radix(out.tier_switch(1), "cluster.scale_out.fat_tree.spine_switch.radix", kind),
                 checked_radix(out.tier_switch(2), "cluster.scale_out.fat_tree.core_switch.radix", kind)};
  if (spec.tiers > 3) spec_error(kTiers, "expected 1, 2 or 3 (or leave it out: the fewest that fit); got {}", spec.tiers);
  if (shape.rail && spec.tiers == 1) {
    spec_error(kTiers, "a rail fat tree has at least 2 tiers: its rails meet at the spines");
  }
  check_oversubscription(spec.oversubscription[0], "leaf");
  check_oversubscription(spec.oversubscription[1], "spine");
  shape.leaf_oversubscription = spec.oversubscription[0];
  shape.spine_oversubscription = spec.oversubscription[1];
  const bool pods_set = spec.leaves_per_pod > 0 || spec.pod_endpoints > 0;
  if (pods_set && spec.tiers != 0 && spec.tiers != 3) {
    spec_error(spec.pod_endpoints > 0 ? kPodEndpoints : kLeavesPerPod, "pods exist only in a 3-tier tree; tiers is {}",
               spec.tiers);
  }

  shape.endpoints = static_cast<std::uint32_t>(cluster.devices());
  shape.nodes = cluster.nodes;
  const std::uint32_t k1 = shape.radix[0];
  if (shape.rail) {
    const std::uint32_t leaf_most = down_ports(k1, shape.leaf_oversubscription, "leaves");
    if (spec.endpoints_per_leaf > 0) {
      spec_error(kEndpointsPerLeaf, "a rail leaf serves a rail group; set nodes_per_rail_group instead");
    }
    shape.rails = cluster.nics_per_node;
    shape.nodes_per_group = spec.nodes_per_rail_group > 0 ? spec.nodes_per_rail_group : std::min(leaf_most, shape.nodes);
    if (shape.nodes_per_group < 1 || shape.nodes_per_group > leaf_most) {
      spec_error(kRailGroup,
                 "a rail leaf has {} ports for nodes ({}-port switch at oversubscription {}:1), so a rail group holds "
                 "1 to {} nodes; got {}",
                 leaf_most, k1, shape.leaf_oversubscription, leaf_most, shape.nodes_per_group);
    }
    shape.leaf_down = shape.nodes_per_group;
    shape.leaves = static_cast<std::uint32_t>(ceil_div(shape.nodes, shape.nodes_per_group)) * shape.rails;
  } else {
    const bool one_switch =
        spec.tiers == 1 || (spec.tiers == 0 && !pods_set && shape.endpoints <= k1 &&
                            (spec.endpoints_per_leaf == 0 || shape.endpoints <= spec.endpoints_per_leaf));
    if (one_switch) {
      if (shape.endpoints > k1) {
        spec_error(kTiers, "one {}-port switch holds at most {} NICs; got {} (leave tiers out for the fewest that fit)",
                   k1, k1, shape.endpoints);
      }
      shape.tiers = 1;
      shape.leaf_down = shape.endpoints;
      shape.leaves = shape.leaves_per_pod = shape.pods = 1;
      return shape;
    }
    const std::uint32_t leaf_most = down_ports(k1, shape.leaf_oversubscription, "leaves");
    shape.leaf_down = spec.endpoints_per_leaf > 0 ? spec.endpoints_per_leaf : leaf_most;
    if (shape.leaf_down < 1 || shape.leaf_down > leaf_most) {
      spec_error(spec.endpoints_per_leaf > 0 ? kEndpointsPerLeaf : kOversubscription,
                 "a leaf of {} ports at oversubscription {}:1 has room for 1 to {} NICs (and their uplinks); got {}", k1,
                 shape.leaf_oversubscription, leaf_most, shape.leaf_down);
    }
    shape.leaves = static_cast<std::uint32_t>(ceil_div(shape.endpoints, shape.leaf_down));
  }
  // Uplinks for the NICs of the fullest leaf: a tree smaller than one leaf does not need all of them.
  const std::uint32_t fullest = shape.rail ? shape.nodes_per_group : std::min(shape.leaf_down, shape.endpoints);
  shape.leaf_up = uplinks_for(fullest, shape.leaf_oversubscription);

  const std::uint32_t k2 = shape.radix[1];
  std::uint32_t pod_leaves = 0;
  if (spec.tiers == 3 || (spec.tiers == 0 && pods_set)) {
    shape.tiers = 3;
  } else if (spec.tiers == 2 || shape.leaves <= k2) {
    shape.tiers = 2;
  } else {
    shape.tiers = 3;
  }
  if (shape.tiers == 3) {
    pod_leaves = plan_pod_leaves(spec, shape, down_ports(k2, shape.spine_oversubscription, "spines"));
    // Pods set by hand on a cluster that fits one pod: two tiers are enough.
    if (spec.tiers == 0 && shape.leaves <= pod_leaves && shape.leaves <= k2) shape.tiers = 2;
  }

  if (shape.tiers == 2) {
    if (shape.leaves > k2) too_many_for_two_tiers(shape);
    if (shape.leaves == 1) {
      spec_error(kTiers, "the {} NICs fit one leaf: a spine above it would carry nothing (leave tiers out)",
                 shape.endpoints);
    }
    // The fewest spines that give every leaf its uplinks: each spine has ceil(u1 / S) ports per leaf.
    const std::uint32_t per_leaf = k2 / shape.leaves;
    shape.spines_per_pod = static_cast<std::uint32_t>(ceil_div(shape.leaf_up, per_leaf));
    shape.leaves_per_pod = shape.leaves;
    shape.pods = 1;
    return shape;
  }

  shape.leaves_per_pod = pod_leaves;
  // The fewest spines per pod whose busiest one (ceil(u1 / S) cables per leaf) keeps its uplinks.
  const std::uint32_t per_leaf = most_down_ports(k2, shape.spine_oversubscription) / pod_leaves;
  shape.spines_per_pod = static_cast<std::uint32_t>(ceil_div(shape.leaf_up, per_leaf));
  const std::uint64_t spine_down = std::uint64_t{pod_leaves} * ceil_div(shape.leaf_up, shape.spines_per_pod);
  shape.spine_up = uplinks_for(spine_down, shape.spine_oversubscription);
  shape.pods = static_cast<std::uint32_t>(ceil_div(shape.leaves, pod_leaves));
  if (shape.pods == 1) {
    spec_error(kTiers, "the {} leaves fit one pod of {}: cores above it would carry nothing (leave tiers out)",
               shape.leaves, pod_leaves);
  }
  const std::uint32_t k3 = shape.radix[2];
  if (shape.pods > k3) {
    const std::uint64_t most = std::uint64_t{k3} * pod_leaves * (shape.rail ? shape.nodes_per_group : shape.leaf_down);
    spec_error(kTiers,
               "a 3-tier {} with {}-port cores holds at most {} NICs ({} pods of {} leaves) at oversubscription {}; got "
               "{} NICs in {} pods (use a larger radix, larger pods or more oversubscription)",
               kind, k3, most, k3, pod_leaves, oversubscription_text(shape, true), shape.endpoints, shape.pods);
  }
  // The fewest cores whose busiest one (ceil(pod uplinks / C) cables per pod) has a port for each.
  const std::uint64_t pod_uplinks = std::uint64_t{shape.spines_per_pod} * shape.spine_up;
  shape.cores = static_cast<std::uint32_t>(ceil_div(pod_uplinks, k3 / shape.pods));
  return shape;
}

}  // namespace rackscale::models::network
