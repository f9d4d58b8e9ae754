#include "models/network/topology/dragonfly.hpp"

#include <memory>
#include <string>

#include <fmt/format.h>

#include "models/network/topology/dragonfly_router.hpp"
#include "models/network/topology/dragonfly_shape.hpp"
#include "models/network/topology/names.hpp"
#include "models/network/topology/network_racks.hpp"
#include "models/network/topology/scale_out_cables.hpp"
#include "models/network/topology/scale_up.hpp"

namespace rackscale::models::network {
namespace {

void connect_groups(TopologyBuilder& builder, const DragonflyShape& shape, const ComputeLayout& layout,
                    std::uint32_t nic_port, const ScaleOutCables& cables) {
  const std::uint32_t a = shape.routers_per_group;
  for (std::uint32_t device = 0; device < shape.endpoints(); ++device) {
    builder.connect({layout.device_node(device), nic_port},
                    {shape.first_node + shape.router_index_of(device), shape.terminal_of(device)}, LinkClass::nic,
                    cables.nic_bandwidth, cables.device_to_switch, cables.switch_to_device);
  }
  for (std::uint32_t group = 0; group < shape.groups; ++group) {
    for (std::uint32_t r = 0; r < a; ++r) {
      for (std::uint32_t peer = r + 1; peer < a; ++peer) {
        builder.connect({shape.router_node(group, r), shape.local_port(group, r, peer)},
                        {shape.router_node(group, peer), shape.local_port(group, peer, r)}, LinkClass::local,
                        cables.switch_bandwidth, cables.switch_to_switch, cables.switch_to_switch);
      }
    }
  }
  const std::uint32_t g = shape.groups;
  for (std::uint32_t group = 0; group < g; ++group) {
    for (std::uint32_t slot = 0; slot < shape.used_global_slots(); ++slot) {
      const std::uint32_t offset = slot % (g - 1) + 1;
      const std::uint32_t other = (group + offset) % g;
      if (other < group) continue;  // made from the other end
      const std::uint32_t other_slot = shape.global_slot(g - offset, slot / (g - 1));
      builder.connect({shape.router_node(group, slot / shape.global_ports), shape.global_port(group, slot)},
                      {shape.router_node(other, other_slot / shape.global_ports), shape.global_port(other, other_slot)},
                      LinkClass::global, cables.switch_bandwidth, cables.switch_to_switch, cables.switch_to_switch);
    }
  }
}

}  // namespace

Topology build_dragonfly(const ClusterSpec& cluster, RoutingMode routing) {
  require_routing(routing, {RoutingMode::minimal, RoutingMode::valiant, RoutingMode::spray}, "a dragonfly");
  const ComputeLayout layout = plan_compute(cluster);
  const ScaleOutCables cables = plan_scale_out_cables(cluster, "dragonfly");
  const DragonflyShape shape = plan_dragonfly(cluster, layout.node_count());
  const std::uint32_t nic_port = scale_up_ports(cluster.scale_up);

  TopologyBuilder builder;
  builder.reserve(std::size_t{layout.node_count()} + shape.routers(),
                  std::size_t{layout.rack_count()} + shape.routers() / cluster.scale_out.switches_per_rack + shape.groups,
                  layout.devices);
  add_compute_racks(builder, layout, nic_port + 1);
  NetworkRacks racks(builder, cluster.scale_out.switches_per_rack);
  for (std::uint32_t group = 0; group < shape.groups; ++group) {
    racks.begin_group();
    for (std::uint32_t r = 0; r < shape.routers_per_group; ++r) racks.add(SwitchRole::router, shape.port_count(group, r));
  }
  connect_scale_up(builder, layout, cluster.scale_up);
  connect_groups(builder, shape, layout, nic_port, cables);

  // "4 terminals", or "9-10 terminals" when the routers do not divide the NICs.
  const std::string terminals =
      shape.fuller_routers() == 0 ? fmt::format("{}", shape.base_terminals())
                                  : fmt::format("{}-{}", shape.base_terminals(), shape.max_terminals());
  const std::uint64_t g = shape.groups, a = shape.routers_per_group;
  std::string description = fmt::format(
      "dragonfly of {} groups x {} routers of {} ports ({} terminals, {} local and {} global ports each; {} global "
      "link{} per pair of groups, consecutive arrangement): {} routers, {} local and {} global cables; {}; routing {}",
      shape.groups, shape.routers_per_group, shape.radix, terminals, shape.routers_per_group - 1,
      shape.groups > 1 ? shape.global_ports : 0, shape.links_per_pair, shape.links_per_pair == 1 ? "" : "s",
      shape.routers(), g * a * (a - 1) / 2, g * (g - 1) / 2 * shape.links_per_pair,
      describe_compute(cluster, layout, true), name_of(routing));
  return builder.finish(std::make_unique<DragonflyRouter>(shape, layout, cluster.scale_up.kind, routing),
                        std::move(description));
}

}  // namespace rackscale::models::network
