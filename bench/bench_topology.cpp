// Builds the largest clusters rackscale targets and prints, for each, the wall time of build_topology,
// the bytes of the resulting Topology, the process's peak resident memory, and the cost of routing.
// Plain timers rather than Google Benchmark: a build is one shot of seconds, not a hot loop.
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "models/network/build_topology.hpp"

namespace {

using namespace rackscale::models::network;

ClusterSpec base(std::uint32_t nodes, std::uint32_t devices_per_node, std::uint32_t nodes_per_rack) {
  ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = devices_per_node;
  c.nodes_per_rack = nodes_per_rack;
  c.nics_per_node = devices_per_node;
  c.nic.bandwidth = 50e9;
  c.nic.latency = 1'000'000;
  c.scale_out.switch_spec.port_bandwidth = 50e9;
  c.scale_out.switch_spec.latency = 300'000;
  c.scale_out.cable_latency = 25'000;
  c.scale_out.switches_per_rack = 16;
  return c;
}

void nvswitch(ClusterSpec& c, std::uint32_t domain) {
  c.scale_up.kind = ScaleUpKind::nvswitch;
  c.scale_up.domain_devices = domain;
  c.scale_up.bandwidth = 450e9;
  c.scale_up.latency = 500'000;
}

ClusterSpec fat_tree(ClusterSpec c, ScaleOutKind kind, std::uint32_t radix, double o1, double o2) {
  c.scale_out.kind = kind;
  c.scale_out.switch_spec.radix = radix;
  c.scale_out.fat_tree.tiers = 0;  // the fewest that hold the endpoints (3 at this size)
  c.scale_out.fat_tree.oversubscription = {o1, o2};
  return c;
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
#if defined(__APPLE__)
  return usage.ru_maxrss / 1024;  // macOS reports bytes
#else
  return usage.ru_maxrss;
#endif
}

void measure(const std::string& name, const ClusterSpec& spec, RoutingMode routing) {
  const auto begin = std::chrono::steady_clock::now();
  const Topology t = build_topology(spec, routing);
  const auto built = std::chrono::steady_clock::now();
  const std::size_t bytes = t.nodes.capacity() * sizeof(Node) + t.ports.capacity() * sizeof(Port) +
                            t.racks.capacity() * sizeof(Rack) + t.devices.capacity() * sizeof(NodeId);

  // Route pseudo-random pairs hop by hop, as the network model will.
  const auto devices = static_cast<std::uint32_t>(t.device_count());
  std::uint64_t hops = 0;
  std::uint64_t state = 12345;
  constexpr int kRoutes = 200'000;
  const auto route_begin = std::chrono::steady_clock::now();
  for (int i = 0; i < kRoutes; ++i) {
    state = route_hash(state, 1, 2);
    const auto src = static_cast<std::uint32_t>(state % devices);
    const auto dst = static_cast<std::uint32_t>((state >> 32) % devices);
    if (src == dst) continue;
    const NodeId to = t.devices[dst];
    NodeId at = t.devices[src];
    RouteTag tag = t.router->start(at, to, static_cast<std::uint64_t>(i), 0);
    while (at != to) {
      at = t.port(at, t.router->next_port(at, to, tag)).peer;
      ++hops;
    }
  }
  const auto route_end = std::chrono::steady_clock::now();
  const double build_s = std::chrono::duration<double>(built - begin).count();
  const double route_ns = std::chrono::duration<double, std::nano>(route_end - route_begin).count();
  fmt::print("{}\n  {}\n  {} devices, {} switches, {} links, {} racks\n  build {:.3f} s, topology {:.1f} MiB, peak RSS "
             "{:.1f} MiB; routing {:.1f} ns/hop, {:.2f} hops/route\n",
             name, t.description, t.device_count(), t.switch_count(), t.link_count(), t.racks.size(), build_s,
             static_cast<double>(bytes) / (1 << 20), static_cast<double>(peak_rss_kib()) / 1024,
             route_ns / static_cast<double>(hops), static_cast<double>(hops) / kRoutes);
  std::fflush(stdout);
}

}  // namespace

int main() {
  {
    ClusterSpec h100 = fat_tree(base(12'288, 8, 4), ScaleOutKind::fat_tree, 64, 1, 3);
    nvswitch(h100, 8);
    measure("98,304 H100: 12,288 nodes x 8, NVSwitch per node, 3-tier fat tree radix 64, 1:1 / 3:1", h100,
            RoutingMode::ecmp);
  }
  {
    ClusterSpec nvl72 = fat_tree(base(1'389 * 18, 4, 18), ScaleOutKind::fat_tree, 144, 1, 1);
    nvswitch(nvl72, 72);
    measure("100,008 GB200: 1,389 NVL72 racks, 3-tier fat tree radix 144", nvl72, RoutingMode::ecmp);
  }
  {
    ClusterSpec rail = fat_tree(base(1'389 * 18, 4, 18), ScaleOutKind::rail_fat_tree, 144, 1, 1);
    rail.scale_out.fat_tree.nodes_per_rail_group = 72;
    nvswitch(rail, 72);
    measure("100,008 GB200: 1,389 NVL72 racks, 3-tier rail fat tree radix 144, rail groups of 72 nodes", rail,
            RoutingMode::spray);
  }
  {
    ClusterSpec df = base(12'544, 8, 4);
    nvswitch(df, 8);
    df.scale_out.kind = ScaleOutKind::dragonfly;
    df.scale_out.switch_spec.radix = 64;
    df.scale_out.dragonfly = DragonflySpec{32, 16, 16, 196};
    measure("100,352 devices: dragonfly a=32 p=16 h=16 g=196", df, RoutingMode::valiant);
  }
  {
    ClusterSpec torus = base(27'648, 4, 1);
    torus.nics_per_node = 0;
    torus.scale_out.kind = ScaleOutKind::torus3d;
    torus.scale_out.torus.dims = {48, 48, 48};
    torus.scale_out.torus.link_bandwidth = 50e9;
    torus.scale_out.torus.link_latency = 500'000;
    measure("110,592 devices: 3D torus 48^3 in 4x4x4 racks", torus, RoutingMode::dimension_order);
  }
}
