#pragma once
// What a cluster is made of, as read from a scenario config (src/io/config fills these; the network
// builders turn them into a Topology). Units: bytes/s, bytes, picoseconds.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/hardware.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

// How devices talk inside their scale-up domain.
enum class ScaleUpKind {
  none,      // no scale-up fabric: all traffic leaves through the NICs
  nvswitch,  // a non-blocking NVSwitch per domain (domain = a node of 8, or a rack-scale NVL72 domain)
  mesh,      // direct device-to-device links inside the domain, bandwidth split over the peers
};

struct ScaleUpSpec {
  ScaleUpKind kind = ScaleUpKind::none;
  std::uint32_t domain_devices = 0;  // devices per domain: devices_per_node (NVSwitch node), 72 (NVL72)
  double bandwidth = 0;              // per device per direction into the fabric, bytes/s
  double efficiency = 1.0;           // fraction of it collectives achieve; links carry bandwidth x efficiency
  pdes::SimTime latency = 0;         // device to device through the fabric (one hop each way)
  SwitchSpec switch_spec;            // for nvswitch: power and naming; radix is not limiting
};

enum class ScaleOutKind {
  none,           // a single scale-up domain, or a torus
  fat_tree,       // folded Clos, 2 or 3 tiers
  rail_fat_tree,  // folded Clos whose leaves are rails: NIC i of every node in a group on leaf i
  dragonfly,      // groups of routers, all-to-all local links, global links between groups
  torus3d,        // devices linked directly in a 3D torus with wrap-around (TPU-style ICI)
};

struct FatTreeSpec {
  // 1: one switch; 2: leaf-spine; 3: leaf-spine-core in pods. 0: the fewest that hold the endpoints.
  std::uint32_t tiers = 0;
  // Per tier below the top: downlinks : uplinks of a leaf (index 0) and of a spine (index 1, 3-tier only).
  // 1 is non-blocking; 3 means three times more capacity down than up.
  std::array<double, 2> oversubscription{1.0, 1.0};
  std::uint32_t nodes_per_rail_group = 0;  // rail_fat_tree only: nodes whose NIC i share leaf i; 0: derived
  std::uint32_t endpoints_per_leaf = 0;    // fat_tree: NIC ports of a leaf; 0: derived from the radix
  std::uint32_t leaves_per_pod = 0;        // 3 tiers: leaves under a pod's spines; 0: derived
  std::uint32_t pod_endpoints = 0;         // 3 tiers: NICs per pod (leaves_per_pod x NICs per leaf); 0: derived
  // Not a config key: the NIC spans of a training job's communication-heavy groups (a pipeline stage,
  // which holds its data-parallel groups; then expert- and context-parallel groups), most preferred
  // first, set from the job by workload::align_pods_to_job. A derived pod (neither key above set) then
  // holds a whole number of the first span that fits, as a user would size pods for the job.
  std::vector<std::uint32_t> job_group_endpoints;
  // Switches of the upper tiers when they differ from cluster.scale_out.switch (a modular chassis as
  // the spines of large pods, for example).
  std::optional<SwitchSpec> spine_switch;
  std::optional<SwitchSpec> core_switch;
};

struct DragonflySpec {
  std::uint32_t routers_per_group = 0;     // a
  std::uint32_t terminals_per_router = 0;  // p: devices (NICs) per router
  std::uint32_t global_links_per_router = 0;  // h
  std::uint32_t groups = 0;                // g <= a*h + 1
};

struct TorusSpec {
  std::array<std::uint32_t, 3> dims{0, 0, 0};  // devices along x, y, z; product = device count
  double link_bandwidth = 0;                   // per link per direction, bytes/s
  pdes::SimTime link_latency = 0;
  std::array<std::uint32_t, 3> rack_dims{4, 4, 4};  // devices per rack along x, y, z (TPU v4: 4x4x4)
};

struct ScaleOutSpec {
  ScaleOutKind kind = ScaleOutKind::none;
  SwitchSpec switch_spec;          // fat trees and dragonfly
  pdes::SimTime cable_latency = 0; // propagation on each scale-out cable
  std::uint32_t switches_per_rack = 16;  // switches per network rack
  FatTreeSpec fat_tree;
  DragonflySpec dragonfly;
  TorusSpec torus;
  // Cable and transceiver classes by port speed (configs/presets/optics), for the bill of materials and
  // the optics' power; each cable takes the slowest class at least as fast as its ports (cabling.hpp).
  std::vector<OpticsSpec> optics;

  // The switch of fat-tree tier `tier` (0 leaf, 1 spine, 2 core); dragonfly routers are tier 0.
  [[nodiscard]] const SwitchSpec& tier_switch(std::uint32_t tier) const noexcept {
    if (tier == 1 && fat_tree.spine_switch) return *fat_tree.spine_switch;
    if (tier == 2 && fat_tree.core_switch) return *fat_tree.core_switch;
    return switch_spec;
  }
};

// A cable running at a fraction of its rate or down (cluster.degraded_links): both directions of the cable
// whose port `port` is (the port ids of the results file's /links).
struct DegradedLink {
  std::uint32_t port = 0;
  double fraction = 1.0;  // [0, 1]; 0: down, its routes moved to the routing's other routes
};

struct ClusterSpec {
  std::uint32_t nodes = 0;
  std::uint32_t devices_per_node = 8;
  std::uint32_t nodes_per_rack = 4;
  std::uint32_t nics_per_node = 8;  // 0 or devices_per_node: NIC i belongs to device i
  AcceleratorSpec accelerator;
  NicSpec nic;
  ScaleUpSpec scale_up;
  ScaleOutSpec scale_out;
  std::vector<DegradedLink> degraded_links;  // applied to the built topology (degraded_links.hpp)

  [[nodiscard]] std::uint64_t devices() const noexcept {
    return static_cast<std::uint64_t>(nodes) * devices_per_node;
  }
};

// The names, fabrics and properties of each: fidelity.hpp.
enum class Fidelity { analytical, chunk, train };
enum class Forwarding { cut_through, store_and_forward };
enum class RoutingMode {
  ecmp,             // fat trees: one path per flow, by hash of (source, destination, flow)
  spray,            // fat trees, dragonfly local choices: a path per chunk
  minimal,          // dragonfly: local, global, local
  valiant,          // dragonfly: via a random intermediate group
  dimension_order,  // torus: x, then y, then z, each the shorter way round
};

// How collectives are simulated (network.collectives).
enum class CollectiveModel {
  automatic,    // closed_form where the network cannot add contention to it (analytical fidelity, or a
                // call inside one non-blocking scale-up domain), messages elsewhere
  messages,     // always: the algorithm's point-to-point messages through the network
  closed_form,  // always: NCCL's cost model for the call's time; members only synchronize
};

struct NetworkSpec {
  Fidelity fidelity = Fidelity::analytical;
  CollectiveModel collectives = CollectiveModel::automatic;
  std::uint64_t chunk_bytes = 64 * 1024;
  Forwarding forwarding = Forwarding::cut_through;
  RoutingMode routing = RoutingMode::ecmp;
};

}  // namespace rackscale::models::network
