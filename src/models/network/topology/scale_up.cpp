#include "models/network/topology/scale_up.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "models/network/topology/names.hpp"
#include "models/network/topology/spec_error.hpp"

namespace rackscale::models::network {
namespace {

// Port index limit (PortIndex is 16-bit), less one for the device's NIC port.
constexpr std::uint32_t kMaxDomainDevices = 65534;

std::string describe_scale_up(const ScaleUpSpec& scale_up) {
  switch (scale_up.kind) {
    case ScaleUpKind::none: return "no scale-up fabric";
    case ScaleUpKind::nvswitch: return fmt::format("NVSwitch domains of {} devices", scale_up.domain_devices);
    case ScaleUpKind::mesh: return fmt::format("direct-mesh domains of {} devices", scale_up.domain_devices);
  }
  return "?";
}

}  // namespace

ComputeLayout plan_compute(const ClusterSpec& cluster) {
  if (cluster.nodes_per_rack == 0) spec_error("cluster.nodes_per_rack", "expected at least 1; got 0");
  const std::uint64_t rack_devices = std::uint64_t{cluster.nodes_per_rack} * cluster.devices_per_node;
  ComputeLayout layout;
  layout.devices = static_cast<std::uint32_t>(cluster.devices());
  // A rack larger than the cluster is just one partial rack; clamping keeps the arithmetic in 32 bits.
  layout.devices_per_rack = static_cast<std::uint32_t>(std::min<std::uint64_t>(rack_devices, cluster.devices()));

  const ScaleUpSpec& up = cluster.scale_up;
  if (up.kind == ScaleUpKind::none) return layout;
  if (up.domain_devices < 2 || up.domain_devices > kMaxDomainDevices) {
    spec_error("cluster.scale_up.domain_devices", "a {} domain needs 2 to {} devices; got {} (use kind: none for no scale-up)",
               name_of(up.kind), kMaxDomainDevices, up.domain_devices);
  }
  if (rack_devices % up.domain_devices != 0) {
    spec_error("cluster.scale_up.domain_devices",
               "a scale-up domain must not span racks, so the devices of a rack (nodes_per_rack x devices_per_node "
               "= {} x {} = {}) must be a multiple of domain_devices; got {}",
               cluster.nodes_per_rack, cluster.devices_per_node, rack_devices, up.domain_devices);
  }
  if (cluster.devices() % up.domain_devices != 0) {
    spec_error("cluster.nodes", "the devices (nodes x devices_per_node = {} x {} = {}) must fill whole scale-up domains "
               "of {} devices; {} are left over",
               cluster.nodes, cluster.devices_per_node, cluster.devices(), up.domain_devices,
               cluster.devices() % up.domain_devices);
  }
  if (!(up.bandwidth > 0) || !std::isfinite(up.bandwidth)) {
    spec_error("cluster.scale_up.bandwidth", "expected a positive bandwidth in bytes/s; got {}", up.bandwidth);
  }
  layout.domain_devices = up.domain_devices;
  layout.domain_switches = up.kind == ScaleUpKind::nvswitch;
  return layout;
}

std::uint32_t scale_up_ports(const ScaleUpSpec& scale_up) noexcept {
  switch (scale_up.kind) {
    case ScaleUpKind::none: return 0;
    case ScaleUpKind::nvswitch: return 1;
    case ScaleUpKind::mesh: return scale_up.domain_devices - 1;
  }
  return 0;
}

void add_compute_racks(TopologyBuilder& builder, const ComputeLayout& layout, std::uint32_t device_ports) {
  std::uint32_t device = 0;
  for (std::uint32_t rack = 0; rack < layout.rack_count(); ++rack) {
    builder.begin_rack(RackKind::compute);
    for (std::uint32_t i = 0; i < layout.devices_in_rack(rack); ++i) builder.add_device(device++, device_ports);
    for (std::uint32_t i = 0; i < layout.switches_in_rack(rack); ++i) {
      builder.add_switch(SwitchRole::scale_up, layout.domain_devices);
    }
  }
}

void connect_scale_up(TopologyBuilder& builder, const ComputeLayout& layout, const ScaleUpSpec& scale_up) {
  const std::uint32_t size = layout.domain_devices;
  if (scale_up.kind == ScaleUpKind::nvswitch) {
    // The spec's latency is device to device; split it over the two hops so that they add up exactly.
    const pdes::SimTime to_switch = scale_up.latency - scale_up.latency / 2;
    const pdes::SimTime to_device = scale_up.latency / 2;
    for (std::uint32_t domain = 0; domain < layout.domain_count(); ++domain) {
      const NodeId sw = layout.domain_switch_node(domain);
      for (std::uint32_t local = 0; local < size; ++local) {
        builder.connect({layout.device_node(domain * size + local), 0}, {sw, local}, LinkClass::scale_up,
                        scale_up.bandwidth * scale_up.efficiency, to_switch, to_device);
      }
    }
  } else if (scale_up.kind == ScaleUpKind::mesh) {
    // Each device splits its fabric bandwidth evenly over its peers (a fully connected mesh of links).
    const double bandwidth = scale_up.bandwidth * scale_up.efficiency / static_cast<double>(size - 1);
    for (std::uint32_t domain = 0; domain < layout.domain_count(); ++domain) {
      for (std::uint32_t i = 0; i < size; ++i) {
        for (std::uint32_t j = i + 1; j < size; ++j) {
          // Device i's peer j sits at port j-1 (i itself is skipped); device j's peer i at port i.
          builder.connect({layout.device_node(domain * size + i), j - 1}, {layout.device_node(domain * size + j), i},
                          LinkClass::scale_up, bandwidth, scale_up.latency, scale_up.latency);
        }
      }
    }
  }
}

std::string describe_compute(const ClusterSpec& cluster, const ComputeLayout& layout, bool with_nics) {
  std::string text = fmt::format("{} devices ({} nodes x {}) in {} racks of {} nodes", layout.devices, cluster.nodes,
                                 cluster.devices_per_node, layout.rack_count(),
                                 std::min(cluster.nodes_per_rack, cluster.nodes));
  if (with_nics) text += fmt::format(", {} NICs per node", cluster.nics_per_node);
  return text + ", " + describe_scale_up(cluster.scale_up);
}

ComputeHop::ComputeHop(const ComputeLayout& layout, ScaleUpKind kind) noexcept
    : layout_(layout),
      kind_(kind),
      nic_port_(static_cast<PortIndex>(kind == ScaleUpKind::nvswitch ? 1
                                       : kind == ScaleUpKind::mesh   ? layout.domain_devices - 1
                                                                     : 0)) {}

std::optional<PortIndex> ComputeHop::port(NodeId at, std::uint32_t dst_device) const noexcept {
  if (at >= layout_.node_count()) return std::nullopt;
  const std::uint32_t device = layout_.device_at(at);
  const std::uint32_t dst_local = dst_device % layout_.domain_devices;
  if (device == kNoDevice) return static_cast<PortIndex>(dst_local);  // an NVSwitch: straight down
  if (kind_ == ScaleUpKind::none || !layout_.same_domain(device, dst_device)) return nic_port_;
  if (kind_ == ScaleUpKind::nvswitch) return PortIndex{0};
  const std::uint32_t local = device % layout_.domain_devices;
  return static_cast<PortIndex>(dst_local < local ? dst_local : dst_local - 1);
}

namespace {

class SingleDomainRouter final : public Router {
 public:
  SingleDomainRouter(const ComputeLayout& layout, ScaleUpKind kind) : hop_(layout, kind) {}
  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override {
    return RouteTag{route_hash(src, dst, flow, chunk)};
  }
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& /*tag*/) const override {
    return *hop_.port(at, hop_.layout().device_at(dst));
  }
  [[nodiscard]] std::string_view name() const override { return "scale-up only"; }
  [[nodiscard]] bool flow_free(std::uint32_t /*src*/, std::uint32_t /*dst*/) const override { return true; }

 private:
  ComputeHop hop_;
};

}  // namespace

Topology build_single_domain(const ClusterSpec& cluster, RoutingMode /*routing: every route is fixed*/) {
  const ComputeLayout layout = plan_compute(cluster);
  if (layout.devices > 1 && layout.domain_devices != layout.devices) {
    spec_error("cluster.scale_out.topology",
               "with topology none every device must be in one scale-up domain; got {} devices and {} (use a "
               "scale-out topology, or scale_up.domain_devices: {})",
               layout.devices, describe_scale_up(cluster.scale_up), layout.devices);
  }
  TopologyBuilder builder;
  add_compute_racks(builder, layout, scale_up_ports(cluster.scale_up));
  connect_scale_up(builder, layout, cluster.scale_up);
  return builder.finish(std::make_unique<SingleDomainRouter>(layout, cluster.scale_up.kind),
                        fmt::format("single scale-up domain, no scale-out network: {}",
                                    describe_compute(cluster, layout, false)));
}

}  // namespace rackscale::models::network
