#include "models/network/fidelity.hpp"
#include "io/config/scenario_loader.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "io/config/config_error.hpp"
#include "io/config/config_node.hpp"
#include "io/config/overrides.hpp"
#include "io/config/presets.hpp"
#include "io/config/goodput_loader.hpp"
#include "io/config/tco_loader.hpp"
#include "io/config/variability_loader.hpp"
#include "io/config/workload_loader.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/workload/job_pods.hpp"
#include "partition/partitioner.hpp"

namespace rackscale::io {
namespace {

namespace net = models::network;

struct PresetField {
  const char* path;
  PresetKind kind;
};
constexpr std::array kPresetFields{
    PresetField{"cluster.accelerator", PresetKind::accelerator},
    PresetField{"cluster.nic", PresetKind::nic},
    PresetField{"cluster.scale_up.switch", PresetKind::switch_spec},
    PresetField{"cluster.scale_out.switch", PresetKind::switch_spec},
    PresetField{"cluster.scale_out.fat_tree.spine_switch", PresetKind::switch_spec},
    PresetField{"cluster.scale_out.fat_tree.core_switch", PresetKind::switch_spec},
};

// The node at a dotted path through mappings, or null.
ConfigNode* find_path(ConfigNode& root, const std::string& path) {
  ConfigNode* node = &root;
  for (std::size_t start = 0; node != nullptr;) {
    const auto dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_mapping()) return nullptr;
    ConfigEntry* entry = node->find(key);
    node = entry == nullptr ? nullptr : &entry->value;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

std::string sequence_of(const ConfigNode& n) {
  return n.is_sequence() ? fmt::format("a sequence of {}", n.items.size()) : describe_found(n);
}

std::uint32_t read_u32_any(const ConfigNode& n, const std::string& p) { return read_u32(n, p, 0); }
std::uint64_t read_u64_any(const ConfigNode& n, const std::string& p) { return read_integer(n, p, 0); }

constexpr const char* kSwitched = "only allowed with topology: fat_tree, rail_fat_tree or dragonfly";

net::ScaleUpSpec read_scale_up(const ConfigNode& node, const std::string& path, std::uint32_t devices_per_node,
                               KeyLocations* locations) {
  const MapReader r(node, path, {"kind", "domain_devices", "bandwidth", "efficiency", "latency", "switch"}, locations);
  net::ScaleUpSpec s;
  s.kind = r.required("kind", [](const ConfigNode& n, const std::string& p) {
    return read_enum<net::ScaleUpKind>(
        n, p,
        {{"none", net::ScaleUpKind::none}, {"nvswitch", net::ScaleUpKind::nvswitch}, {"mesh", net::ScaleUpKind::mesh}});
  });
  if (s.kind == net::ScaleUpKind::none) {
    for (const char* key : {"domain_devices", "bandwidth", "efficiency", "latency", "switch"})
      r.forbid(key, "only allowed with kind: nvswitch or mesh");
    return s;
  }
  if (s.kind == net::ScaleUpKind::mesh) r.forbid("switch", "only allowed with kind: nvswitch");
  s.domain_devices = r.optional("domain_devices", devices_per_node, read_count);
  s.bandwidth = r.required("bandwidth", read_bandwidth);
  s.efficiency = r.optional("efficiency", s.efficiency, read_fraction);
  s.latency = r.required("latency", read_duration);
  if (s.kind == net::ScaleUpKind::nvswitch)
    s.switch_spec = read_switch(r.require("switch"), r.path_of("switch"), locations);
  return s;
}

std::array<double, 2> read_oversubscription(const ConfigNode& n, const std::string& p, std::uint32_t tiers) {
  std::array<double, 2> result{1.0, 1.0};
  if (!n.is_sequence()) {
    result[0] = read_number(n, p, 1.0);
    return result;
  }
  // One ratio per tier below the top: the leaf's, and in a 3-tier tree also the spine's. With the tiers
  // left to the builder, a spine's ratio is allowed and used if the tree has three.
  const std::size_t most = tiers == 0 ? 2 : std::max<std::size_t>(tiers, 2) - 1;
  if (n.items.empty() || n.items.size() > most)
    fail(n, p,
         most == 1
             ? fmt::format("expected a number or a sequence of 1 number (leaf) for a {}-tier fat tree, found {}", tiers,
                           sequence_of(n))
             : "expected a number or a sequence of 1 or 2 numbers (leaf, spine), found " + sequence_of(n));
  for (std::size_t i = 0; i < n.items.size(); ++i)
    result[i] = read_number(n.items[i], fmt::format("{}[{}]", p, i), 1.0);
  return result;
}

std::array<std::uint32_t, 3> read_dims(const ConfigNode& n, const std::string& p) {
  if (!n.is_sequence() || n.items.size() != 3)
    fail(n, p, "expected a sequence of 3 integers [x, y, z], found " + sequence_of(n));
  std::array<std::uint32_t, 3> dims{};
  for (std::size_t i = 0; i < 3; ++i) dims[i] = read_count(n.items[i], fmt::format("{}[{}]", p, i));
  return dims;
}

net::FatTreeSpec read_fat_tree(const ConfigNode& node, const std::string& path, net::ScaleOutKind kind,
                               KeyLocations* locations) {
  const MapReader r(node, path,
                    {"tiers", "oversubscription", "nodes_per_rail_group", "endpoints_per_leaf", "leaves_per_pod",
                     "pod_endpoints", "spine_switch", "core_switch"},
                    locations);
  net::FatTreeSpec f;
  f.tiers = r.optional("tiers", f.tiers, [](const ConfigNode& n, const std::string& p) {
    return static_cast<std::uint32_t>(read_integer(n, p, 1, 3));
  });
  if (const ConfigNode* o = r.find("oversubscription"))
    f.oversubscription = read_oversubscription(*o, r.path_of("oversubscription"), f.tiers);
  if (kind == net::ScaleOutKind::rail_fat_tree) {
    f.nodes_per_rail_group = r.optional("nodes_per_rail_group", f.nodes_per_rail_group, read_count);
    r.forbid("endpoints_per_leaf", "a rail leaf serves a rail group: set nodes_per_rail_group");
  } else {
    r.forbid("nodes_per_rail_group", "only allowed with topology: rail_fat_tree");
    f.endpoints_per_leaf = r.optional("endpoints_per_leaf", f.endpoints_per_leaf, read_count);
  }
  f.leaves_per_pod = r.optional("leaves_per_pod", f.leaves_per_pod, read_count);
  f.pod_endpoints = r.optional("pod_endpoints", f.pod_endpoints, read_count);
  if (const ConfigNode* n = r.find("spine_switch")) f.spine_switch = read_switch(*n, r.path_of("spine_switch"), locations);
  if (const ConfigNode* n = r.find("core_switch")) f.core_switch = read_switch(*n, r.path_of("core_switch"), locations);
  return f;
}

net::DragonflySpec read_dragonfly(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path, {"routers_per_group", "terminals_per_router", "global_links_per_router", "groups"},
                    locations);
  // Each count left out (0) is derived from the NICs and the switch radix by the topology builder.
  net::DragonflySpec d;
  d.routers_per_group = r.optional("routers_per_group", d.routers_per_group, read_count);
  d.terminals_per_router = r.optional("terminals_per_router", d.terminals_per_router, read_count);
  d.global_links_per_router = r.optional("global_links_per_router", d.global_links_per_router, read_count);
  d.groups = r.optional("groups", d.groups, read_count);
  return d;
}

net::TorusSpec read_torus(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path, {"dims", "link_bandwidth", "link_latency", "rack_dims"}, locations);
  net::TorusSpec t;
  t.dims = r.required("dims", read_dims);
  t.link_bandwidth = r.required("link_bandwidth", read_bandwidth);
  t.link_latency = r.required("link_latency", read_duration);
  t.rack_dims = r.optional("rack_dims", t.rack_dims, read_dims);
  return t;
}

// cluster.scale_out.optics: a preset (name or mapping) or a sequence of them; when absent, every optics
// preset, so that each port speed finds its class.
std::vector<models::OpticsSpec> read_optics_catalog(const ConfigNode* node, const std::string& path,
                                                    const std::string& presets_dir, KeyLocations* locations) {
  std::vector<models::OpticsSpec> catalog;
  if (node == nullptr) {
    for (const auto& name : preset_names(PresetKind::optics, presets_dir))
      catalog.push_back(load_optics_preset(name, presets_dir));
    return catalog;
  }
  if (!node->is_sequence()) {
    ConfigNode field = *node;
    resolve_preset(field, PresetKind::optics, path, presets_dir);
    catalog.push_back(read_optics(field, path, locations));
    return catalog;
  }
  if (node->items.empty()) fail(*node, path, "expected an optics preset or a sequence of them, found an empty sequence");
  for (std::size_t i = 0; i < node->items.size(); ++i) {
    const std::string item_path = fmt::format("{}[{}]", path, i);
    ConfigNode field = node->items[i];
    resolve_preset(field, PresetKind::optics, item_path, presets_dir);
    catalog.push_back(read_optics(field, item_path, locations));
  }
  return catalog;
}

net::ScaleOutSpec read_scale_out(const ConfigNode& node, const std::string& path, const std::string& presets_dir,
                                 KeyLocations* locations) {
  const MapReader r(node, path,
                    {"topology", "switch", "cable_latency", "switches_per_rack", "fat_tree", "dragonfly", "torus",
                     "optics"},
                    locations);
  net::ScaleOutSpec s;
  s.kind = r.required("topology", [](const ConfigNode& n, const std::string& p) {
    return read_enum<net::ScaleOutKind>(n, p,
                                        {{"none", net::ScaleOutKind::none},
                                         {"fat_tree", net::ScaleOutKind::fat_tree},
                                         {"rail_fat_tree", net::ScaleOutKind::rail_fat_tree},
                                         {"dragonfly", net::ScaleOutKind::dragonfly},
                                         {"torus3d", net::ScaleOutKind::torus3d}});
  });
  const bool fat_tree = s.kind == net::ScaleOutKind::fat_tree || s.kind == net::ScaleOutKind::rail_fat_tree;
  const bool switched = fat_tree || s.kind == net::ScaleOutKind::dragonfly;
  if (!fat_tree) r.forbid("fat_tree", "only allowed with topology: fat_tree or rail_fat_tree");
  if (s.kind != net::ScaleOutKind::dragonfly) r.forbid("dragonfly", "only allowed with topology: dragonfly");
  if (s.kind != net::ScaleOutKind::torus3d) r.forbid("torus", "only allowed with topology: torus3d");
  if (!switched)
    for (const char* key : {"switch", "cable_latency", "switches_per_rack"}) r.forbid(key, kSwitched);

  if (switched) {
    s.switch_spec = read_switch(r.require("switch"), r.path_of("switch"), locations);
    s.cable_latency = r.optional("cable_latency", s.cable_latency, read_duration);
    s.switches_per_rack = r.optional("switches_per_rack", s.switches_per_rack, read_count);
  }
  if (fat_tree) {
    // Every key of fat_tree has a default: the section may be left out.
    if (const ConfigNode* f = r.find("fat_tree")) s.fat_tree = read_fat_tree(*f, r.path_of("fat_tree"), s.kind, locations);
  }
  if (s.kind == net::ScaleOutKind::dragonfly) {
    // Every key of dragonfly has a default (sized to the NICs): the section may be left out.
    if (const ConfigNode* d = r.find("dragonfly")) s.dragonfly = read_dragonfly(*d, r.path_of("dragonfly"), locations);
  }
  if (s.kind == net::ScaleOutKind::torus3d) s.torus = read_torus(r.require("torus"), r.path_of("torus"), locations);
  if (s.kind == net::ScaleOutKind::none) r.forbid("optics", "only allowed with a scale-out network (it has no cables)");
  else s.optics = read_optics_catalog(r.find("optics"), r.path_of("optics"), presets_dir, locations);
  return s;
}

net::ClusterSpec read_cluster(const ConfigNode& node, const std::string& presets_dir, KeyLocations* locations) {
  const MapReader r(
      node, "cluster",
      {"nodes", "devices_per_node", "nodes_per_rack", "nics_per_node", "accelerator", "nic", "scale_up", "scale_out",
       "storage", "degraded_links"},
      locations);
  net::ClusterSpec c;
  c.nodes = r.required("nodes", read_count);
  c.devices_per_node = r.optional("devices_per_node", c.devices_per_node, read_count);
  c.nodes_per_rack = r.optional("nodes_per_rack", c.nodes_per_rack, read_count);
  // One NIC per device or none (a torus, or a single scale-up domain); the default follows the devices.
  c.nics_per_node = r.optional("nics_per_node", c.devices_per_node, read_u32_any);
  if (c.nics_per_node != 0 && c.nics_per_node != c.devices_per_node)
    fail(r.require("nics_per_node"), r.path_of("nics_per_node"),
         fmt::format("expected 0 or {} (devices_per_node), found {}", c.devices_per_node, c.nics_per_node));
  c.accelerator = read_accelerator(r.require("accelerator"), r.path_of("accelerator"), locations);
  if (c.nics_per_node > 0 || r.has("nic")) c.nic = read_nic(r.require("nic"), r.path_of("nic"), locations);
  if (const ConfigNode* n = r.find("scale_up"))
    c.scale_up = read_scale_up(*n, r.path_of("scale_up"), c.devices_per_node, locations);
  if (const ConfigNode* n = r.find("scale_out"))
    c.scale_out = read_scale_out(*n, r.path_of("scale_out"), presets_dir, locations);
  return c;
}

// Each topology's natural routing, so a scenario need not name it.
net::RoutingMode default_routing(net::ScaleOutKind kind) {
  switch (kind) {
    case net::ScaleOutKind::dragonfly:
      return net::RoutingMode::minimal;
    case net::ScaleOutKind::torus3d:
      return net::RoutingMode::dimension_order;
    default:
      return net::RoutingMode::ecmp;
  }
}

net::NetworkSpec read_network(const ConfigNode* node, net::ScaleOutKind topology, KeyLocations* locations) {
  net::NetworkSpec n;
  n.routing = default_routing(topology);
  if (node == nullptr) return n;
  const MapReader r(*node, "network", {"fidelity", "chunk_size", "forwarding", "routing", "collectives"}, locations);
  n.fidelity = r.optional("fidelity", n.fidelity, [](const ConfigNode& v, const std::string& p) {
    EnumChoices<net::Fidelity> choices;
    for (const net::FidelityInfo& f : net::fidelities()) choices.emplace_back(std::string(f.name), f.fidelity);
    return read_enum<net::Fidelity>(v, p, choices);
  });
  n.collectives = r.optional("collectives", n.collectives, [](const ConfigNode& v, const std::string& p) {
    return read_enum<net::CollectiveModel>(v, p,
                                           {{"automatic", net::CollectiveModel::automatic},
                                            {"messages", net::CollectiveModel::messages},
                                            {"closed_form", net::CollectiveModel::closed_form}});
  });
  n.chunk_bytes = r.optional("chunk_size", n.chunk_bytes,
                             [](const ConfigNode& v, const std::string& p) { return read_size(v, p, 1); });
  n.forwarding = r.optional("forwarding", n.forwarding, [](const ConfigNode& v, const std::string& p) {
    return read_enum<net::Forwarding>(
        v, p,
        {{"cut_through", net::Forwarding::cut_through}, {"store_and_forward", net::Forwarding::store_and_forward}});
  });
  n.routing = r.optional("routing", n.routing, [](const ConfigNode& v, const std::string& p) {
    return read_enum<net::RoutingMode>(v, p,
                                       {{"ecmp", net::RoutingMode::ecmp},
                                        {"spray", net::RoutingMode::spray},
                                        {"minimal", net::RoutingMode::minimal},
                                        {"valiant", net::RoutingMode::valiant},
                                        {"dimension_order", net::RoutingMode::dimension_order}});
  });
  return n;
}

models::SimulationSpec read_simulation(const ConfigNode* node, models::WorkloadKind workload, KeyLocations* locations) {
  models::SimulationSpec s;
  // Training, and the replay of a traced training job: every pipeline stage's racks dealt out over the
  // ranks, so that each rank has work from every stage at every moment; METIS's contiguous parts put whole
  // stages on one rank, which then works while the others wait (2.1x faster on 2 ranks for Llama 3 405B on
  // 16,384 H100s; 1.7x for a 1,024-device replay; docs/performance.md).
  if (workload == models::WorkloadKind::training || workload == models::WorkloadKind::trace)
    s.partition = "round_robin";
  if (node == nullptr) return s;
  const MapReader r(*node, "simulation", {"seed", "end", "partition"}, locations);
  s.seed = r.optional("seed", s.seed, read_u64_any);
  s.end = r.optional("end", s.end, [](const ConfigNode& v, const std::string& p) {
    return v.is_scalar() && v.scalar == "never" ? pdes::kNever : read_duration(v, p);
  });
  s.partition = r.optional("partition", s.partition, [](const ConfigNode& v, const std::string& p) {
    return partition::partitioner_names()[read_choice(v, p, partition::partitioner_names())];
  });
  return s;
}

// workload.simulated_replicas: one, where the config alone tells that replica 0 cannot stand for the others.
void check_one_replica(const models::Scenario& scenario) {
  if (scenario.workload.training.simulated_replicas != models::workload::SimulatedReplicas::one) return;
  if (const std::string why = models::one_replica_refusal(scenario); !why.empty())
    throw ConfigError(scenario.locate("workload.simulated_replicas") + "workload.simulated_replicas: one: " + why +
                      "; use all");
}

}  // namespace

models::Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  return load_scenario(path, overrides, presets_directory());
}

models::Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                               const std::string& presets_dir) {
  ConfigNode root = parse_yaml_file(path);
  if (!root.is_mapping())
    fail(root, "", "expected a mapping of scenario keys (name, cluster, workload, ...), found " + describe_found(root));

  const auto takes_preset = [](const std::string& key_path) {
    return key_path == kModelPresetPath || key_path == kStackPresetPath ||
           std::any_of(kPresetFields.begin(), kPresetFields.end(),
                       [&](const PresetField& f) { return key_path == f.path; });
  };
  for (const auto& assignment : overrides) apply_override(root, assignment, takes_preset);
  for (const auto& field : kPresetFields)
    if (ConfigNode* node = find_path(root, field.path)) resolve_preset(*node, field.kind, field.path, presets_dir);
  resolve_model_preset(root, presets_dir);

  models::Scenario scenario;
  scenario.source_file = path;
  scenario.overrides = overrides;
  KeyLocations* locations = &scenario.key_locations;

  const MapReader r(root, "", {"name", "description", "cluster", "network", "workload", "simulation", "tco", "goodput"},
                    locations);
  scenario.name = r.optional("name", std::filesystem::path(path).stem().string(), read_string);
  scenario.description = r.optional("description", std::string{}, read_string);
  scenario.cluster = read_cluster(r.require("cluster"), presets_dir, locations);
  scenario.network = read_network(r.find("network"), scenario.cluster.scale_out.kind, locations);
  scenario.workload = read_workload(r.require("workload"), scenario.cluster, locations);
  // Derived fat-tree pods hold whole data-parallel groups of a training job where they fit.
  if (scenario.workload.kind == models::WorkloadKind::training)
    models::workload::align_pods_to_job(scenario.cluster, scenario.workload.training);
  // After the pods are aligned: the ports a degraded link names are those of the topology that is built.
  if (const ConfigEntry* degraded = r.require("cluster").find("degraded_links"))
    scenario.cluster.degraded_links =
        read_degraded_links(degraded->value, "cluster.degraded_links", scenario.cluster, locations);
  if (scenario.workload.kind == models::WorkloadKind::training) check_one_replica(scenario);
  scenario.simulation = read_simulation(r.find("simulation"), scenario.workload.kind, locations);
  scenario.tco = read_tco(r.find("tco"), scenario.cluster, locations);
  // cluster.storage (read here: the cluster's spec is the network's) and goodput: the run-level model's.
  const ConfigEntry* storage = r.require("cluster").find("storage");
  scenario.goodput = read_goodput(r.find("goodput"), storage == nullptr ? nullptr : &storage->value, locations);
  // Only once the tree is known good: emitting a hostile one (a million keys) is wasted time.
  scenario.resolved_yaml = emit_yaml(root);
  return scenario;
}

}  // namespace rackscale::io
