// The loader on the example configs and on small scenarios: values land in the structs exactly,
// presets merge with what the scenario writes, every key's location is recorded, and the resolved
// YAML reads back to the same scenario.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"
#include "io/config/presets.hpp"

namespace rackscale::io::test {
namespace {

namespace net = models::network;

TEST(Loader, FatTreeExampleLandsExactly) {
  const std::string path = example("fat-tree-128.yaml");
  const models::Scenario s = load_scenario(path, {}, presets_dir());
  EXPECT_EQ(s.name, "fat-tree-128");
  EXPECT_EQ(s.description, "16 H100 nodes on a 2-tier fat tree");
  EXPECT_EQ(s.source_file, path);

  const net::ClusterSpec& c = s.cluster;
  EXPECT_EQ(c.nodes, 16u);
  EXPECT_EQ(c.devices_per_node, 8u);
  EXPECT_EQ(c.nodes_per_rack, 4u);
  EXPECT_EQ(c.nics_per_node, 8u);
  EXPECT_EQ(c.devices(), 128u);

  EXPECT_EQ(c.accelerator.name, "h100-sxm5-80gb");
  EXPECT_EQ(c.accelerator.peak_bf16_flops, 989.4e12);
  EXPECT_EQ(c.accelerator.peak_fp8_flops, 1979e12);
  EXPECT_EQ(c.accelerator.memory_bytes, 80ull << 30);
  EXPECT_EQ(c.accelerator.memory_bandwidth, 3.35e12);
  EXPECT_EQ(c.accelerator.tdp_watts, 700.0);
  EXPECT_EQ(c.accelerator.idle_watts, 70.0);
  EXPECT_EQ(c.accelerator.process_nm, 4.0);
  EXPECT_EQ(c.accelerator.die_area_mm2, 814.0);
  EXPECT_NE(c.accelerator.source.find("accelerators.csv"), std::string::npos);

  EXPECT_EQ(c.nic.name, "connectx7-400g");
  EXPECT_EQ(c.nic.bandwidth, 5e10);  // 400Gbps
  EXPECT_EQ(c.nic.latency, 600 * pdes::kNanosecond);

  EXPECT_EQ(c.scale_up.kind, net::ScaleUpKind::nvswitch);
  EXPECT_EQ(c.scale_up.domain_devices, 8u);
  EXPECT_EQ(c.scale_up.bandwidth, 450e9);
  EXPECT_EQ(c.scale_up.latency, 500 * pdes::kNanosecond);
  EXPECT_EQ(c.scale_up.switch_spec.name, "nvswitch-gen3");
  EXPECT_EQ(c.scale_up.switch_spec.port_bandwidth, 25e9);

  EXPECT_EQ(c.scale_out.kind, net::ScaleOutKind::fat_tree);
  EXPECT_EQ(c.scale_out.switch_spec.name, "quantum2-qm9700");
  EXPECT_EQ(c.scale_out.switch_spec.radix, 64u);
  EXPECT_EQ(c.scale_out.switch_spec.port_bandwidth, 5e10);
  EXPECT_EQ(c.scale_out.switch_spec.latency, 200 * pdes::kNanosecond);
  EXPECT_EQ(c.scale_out.cable_latency, 50 * pdes::kNanosecond);
  EXPECT_EQ(c.scale_out.switches_per_rack, 16u);
  EXPECT_EQ(c.scale_out.fat_tree.tiers, 2u);
  EXPECT_EQ(c.scale_out.fat_tree.oversubscription[0], 1.0);
  EXPECT_EQ(c.scale_out.fat_tree.oversubscription[1], 1.0);

  EXPECT_EQ(s.network.fidelity, net::Fidelity::chunk);
  EXPECT_EQ(s.network.chunk_bytes, 65536u);
  EXPECT_EQ(s.network.forwarding, net::Forwarding::cut_through);
  EXPECT_EQ(s.network.routing, net::RoutingMode::spray);

  EXPECT_EQ(s.workload.kind, models::WorkloadKind::traffic);
  EXPECT_EQ(s.workload.traffic.pattern, models::TrafficPattern::permutation);
  EXPECT_EQ(s.workload.traffic.bytes, 1048576u);
  EXPECT_EQ(s.workload.traffic.senders, 0u);
  EXPECT_EQ(s.workload.traffic.receiver, 0u);
  EXPECT_EQ(s.workload.traffic.messages, 1u);

  EXPECT_EQ(s.simulation.seed, 1u);
  EXPECT_EQ(s.simulation.end, pdes::kSecond);
  EXPECT_EQ(s.simulation.partition, "metis");
}

TEST(Loader, RecordsWhereEveryKeyWasWritten) {
  const std::string path = example("fat-tree-128.yaml");
  const models::Scenario s = load_scenario(path, {}, presets_dir());
  EXPECT_EQ(s.key_locations.at("name"), path + ":3:1");
  EXPECT_EQ(s.key_locations.at("cluster"), path + ":5:1");
  EXPECT_EQ(s.key_locations.at("cluster.nodes"), path + ":6:3");
  EXPECT_EQ(s.key_locations.at("cluster.scale_out.fat_tree.tiers"), path + ":20:16");
  EXPECT_EQ(s.key_locations.at("workload.bytes"), path + ":29:3");
  // Keys that came from a preset point into the preset file.
  const std::string preset = presets_dir() + "/accelerators/h100-sxm5-80gb.yaml";
  EXPECT_EQ(s.key_locations.at("cluster.accelerator.memory"), preset + ":6:1");
  EXPECT_EQ(s.key_locations.at("cluster.scale_out.switch.radix"), presets_dir() + "/switches/quantum2-qm9700.yaml:4:1");
  // locate() falls back to the nearest written ancestor.
  EXPECT_EQ(s.locate("cluster.scale_out.fat_tree.oversubscription"), path + ":20:26: ");
  EXPECT_EQ(s.locate("cluster.scale_out.fat_tree.something_else"), path + ":20:5: ");
}

TEST(Loader, EveryExampleLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() + "/configs/examples")) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_EQ(load_error(entry.path().string()), "");
    ++count;
  }
  EXPECT_GE(count, 5);
}

// The partitioner by default: METIS, but round robin for training and for the replay of traced jobs, so
// that every pipeline stage is spread over the ranks (docs/config.md, simulation.partition).
TEST(Loader, PartitionDefaultsByWorkload) {
  const auto partition_of = [](const std::string& path) {
    return load_scenario(path, {}, presets_dir()).simulation.partition;
  };
  EXPECT_EQ(partition_of(example("fat-tree-128.yaml")), "metis");
  EXPECT_EQ(partition_of(source_dir() + "/configs/training/laptop-64.yaml"), "round_robin");
  EXPECT_EQ(partition_of(source_dir() + "/configs/traces/astra-sim-all-reduce-16.yaml"), "round_robin");
  EXPECT_EQ(load_scenario(source_dir() + "/configs/traces/astra-sim-all-reduce-16.yaml", {"simulation.partition=block"},
                          presets_dir())
                .simulation.partition,
            "block");
}

TEST(Loader, OtherTopologiesLand) {
  const models::Scenario torus = load_scenario(example("torus-tpu-v5p-512.yaml"), {}, presets_dir());
  EXPECT_EQ(torus.cluster.scale_out.kind, net::ScaleOutKind::torus3d);
  EXPECT_EQ(torus.cluster.nics_per_node, 0u);
  EXPECT_EQ(torus.cluster.scale_up.kind, net::ScaleUpKind::none);
  EXPECT_EQ(torus.cluster.scale_out.torus.dims, (std::array<std::uint32_t, 3>{8, 8, 8}));
  EXPECT_EQ(torus.cluster.scale_out.torus.rack_dims, (std::array<std::uint32_t, 3>{4, 4, 4}));
  EXPECT_EQ(torus.cluster.scale_out.torus.link_bandwidth, 100e9);
  EXPECT_EQ(torus.cluster.scale_out.torus.link_latency, 500 * pdes::kNanosecond);
  EXPECT_EQ(torus.network.routing, net::RoutingMode::dimension_order);

  const models::Scenario dragonfly = load_scenario(example("dragonfly-256.yaml"), {}, presets_dir());
  const net::DragonflySpec& d = dragonfly.cluster.scale_out.dragonfly;
  EXPECT_EQ(dragonfly.cluster.scale_out.kind, net::ScaleOutKind::dragonfly);
  EXPECT_EQ(d.routers_per_group, 8u);
  EXPECT_EQ(d.terminals_per_router, 4u);
  EXPECT_EQ(d.global_links_per_router, 4u);
  EXPECT_EQ(d.groups, 8u);
  EXPECT_EQ(dragonfly.cluster.nic.bandwidth, 2.5e10);  // 200Gbps
  EXPECT_EQ(dragonfly.workload.traffic.pattern, models::TrafficPattern::uniform_random);
  EXPECT_EQ(dragonfly.workload.traffic.messages, 4u);

  const models::Scenario rail = load_scenario(example("rail-fat-tree-1024.yaml"), {}, presets_dir());
  EXPECT_EQ(rail.cluster.scale_out.kind, net::ScaleOutKind::rail_fat_tree);
  EXPECT_EQ(rail.cluster.scale_out.fat_tree.nodes_per_rail_group, 32u);
  EXPECT_EQ(rail.cluster.scale_up.domain_devices, 8u);  // defaults to devices_per_node

  const models::Scenario nvl = load_scenario(example("gb200-nvl72-288.yaml"), {}, presets_dir());
  EXPECT_EQ(nvl.cluster.scale_up.domain_devices, 72u);
  EXPECT_EQ(nvl.cluster.scale_up.bandwidth, 900e9);
  EXPECT_EQ(nvl.cluster.nics_per_node, 4u);  // defaults to devices_per_node
  EXPECT_EQ(nvl.workload.traffic.senders, 16u);
}

TEST(Loader, DefaultsFillWhatIsNotWritten) {
  const models::Scenario s = load_text(R"(cluster:
  nodes: 1
  devices_per_node: 4
  accelerator: mi300x
  nic: connectx8-800g
workload: {type: traffic, pattern: all_to_all, bytes: 4KiB}
)");
  EXPECT_EQ(s.name.rfind("scenario_", 0), 0u);  // the file name
  EXPECT_EQ(s.cluster.nics_per_node, 4u);
  EXPECT_EQ(s.cluster.nodes_per_rack, 4u);
  EXPECT_EQ(s.cluster.scale_up.kind, net::ScaleUpKind::none);
  EXPECT_EQ(s.cluster.scale_out.kind, net::ScaleOutKind::none);
  EXPECT_EQ(s.cluster.nic.bandwidth, 1e11);
  EXPECT_EQ(s.network.chunk_bytes, 64u * 1024u);
  EXPECT_EQ(s.network.routing, net::RoutingMode::ecmp);
  EXPECT_EQ(s.simulation.end, pdes::kNever);
  EXPECT_EQ(s.simulation.seed, 1u);
}

// Eight A100 nodes on a dragonfly of HDR switches, up to the dragonfly's own section.
const std::string kDragonflyCluster = R"(cluster:
  nodes: 8
  accelerator: a100-sxm4-80gb
  nic: connectx6-hdr-200g
  scale_out:
    topology: dragonfly
    switch: quantum-qm8700-hdr
)";

TEST(Loader, RoutingDefaultsToTheTopologysOwn) {
  const models::Scenario s = load_text(kDragonflyCluster + R"(    dragonfly: {routers_per_group: 4, terminals_per_router: 4, global_links_per_router: 2, groups: 4}
workload: {type: traffic, pattern: ring, bytes: 1MiB}
simulation: {end: never, seed: 18446744073709551615, partition: block}
)");
  EXPECT_EQ(s.network.routing, net::RoutingMode::minimal);
  EXPECT_EQ(s.simulation.end, pdes::kNever);
  EXPECT_EQ(s.simulation.seed, 18446744073709551615u);
  EXPECT_EQ(s.simulation.partition, "block");
  EXPECT_EQ(s.cluster.scale_out.cable_latency, 0u);
  EXPECT_EQ(s.cluster.scale_out.switches_per_rack, 16u);
}

// The dragonfly's counts default to 0, sized to the NICs by the topology builder: the section and each
// key may be left out.
TEST(Loader, DragonflyCountsMayBeLeftOut) {
  const std::string& head = kDragonflyCluster;
  const std::string tail = "workload: {type: traffic, pattern: ring, bytes: 1MiB}\n";
  const net::DragonflySpec none = load_text(head + tail).cluster.scale_out.dragonfly;
  EXPECT_EQ(none.routers_per_group, 0u);
  EXPECT_EQ(none.terminals_per_router, 0u);
  EXPECT_EQ(none.global_links_per_router, 0u);
  EXPECT_EQ(none.groups, 0u);
  const net::DragonflySpec some =
      load_text(head + "    dragonfly: {terminals_per_router: 2, groups: 4}\n" + tail).cluster.scale_out.dragonfly;
  EXPECT_EQ(some.routers_per_group, 0u);
  EXPECT_EQ(some.terminals_per_router, 2u);
  EXPECT_EQ(some.global_links_per_router, 0u);
  EXPECT_EQ(some.groups, 4u);
}

TEST(Loader, OversubscriptionByTier) {
  const auto with = [](const std::string& fat_tree) {
    std::string text = kMinimalScenario;
    text.replace(text.find("fat_tree: {tiers: 2}"), 20, "fat_tree: " + fat_tree);
    return load_text(text).cluster.scale_out.fat_tree;
  };
  EXPECT_EQ(with("{tiers: 2, oversubscription: 3}").oversubscription, (std::array<double, 2>{3, 1}));
  EXPECT_EQ(with("{tiers: 2, oversubscription: [1.5]}").oversubscription, (std::array<double, 2>{1.5, 1}));
  EXPECT_EQ(with("{tiers: 3, oversubscription: [1, 7]}").oversubscription, (std::array<double, 2>{1, 7}));
  EXPECT_EQ(with("{tiers: 3}").tiers, 3u);
}

TEST(Loader, PresetWithOverridesMergesAndKeepsOrigins) {
  const std::string path = write_temp(R"(cluster:
  nodes: 1
  accelerator: {preset: h100-sxm5-80gb, memory: 96GiB, tdp: 800W}
  nic: connectx7-400g
workload: {type: traffic, pattern: ring, bytes: 1MiB}
)");
  const models::Scenario s = load_scenario(path, {}, presets_dir());
  EXPECT_EQ(s.cluster.accelerator.name, "h100-sxm5-80gb");
  EXPECT_EQ(s.cluster.accelerator.memory_bytes, 96ull << 30);
  EXPECT_EQ(s.cluster.accelerator.tdp_watts, 800.0);
  EXPECT_EQ(s.cluster.accelerator.peak_bf16_flops, 989.4e12);  // from the preset
  EXPECT_NE(s.cluster.accelerator.source.find("Changed by the scenario: memory, tdp."), std::string::npos);
  EXPECT_EQ(s.key_locations.at("cluster.accelerator.memory"), path + ":3:41");
  EXPECT_EQ(s.key_locations.at("cluster.accelerator.peak_bf16_flops"),
            presets_dir() + "/accelerators/h100-sxm5-80gb.yaml:4:1");
}

TEST(Loader, FullMappingWithoutPreset) {
  const models::Scenario s = load_text(R"(cluster:
  nodes: 1
  nics_per_node: 0
  accelerator:
    peak_bf16_flops: 1PFLOPS
    memory: 64GiB
    memory_bandwidth: 4TB/s
    tdp: 500W
    idle_power: 50W
workload: {type: traffic, pattern: ring, bytes: 1MiB}
)");
  const models::AcceleratorSpec& a = s.cluster.accelerator;
  EXPECT_EQ(a.name, "custom");
  EXPECT_EQ(a.peak_bf16_flops, 1e15);
  EXPECT_EQ(a.peak_fp8_flops, 0.0);
  EXPECT_EQ(a.memory_bytes, 64ull << 30);
  EXPECT_EQ(a.memory_bandwidth, 4e12);
  EXPECT_EQ(a.process_nm, 0.0);
  EXPECT_EQ(a.source, "");
  EXPECT_EQ(s.cluster.nic.bandwidth, 0.0);  // no NICs, no NIC needed
}

TEST(Loader, ResolvedYamlReadsBackTheSame) {
  const models::Scenario first = load_scenario(example("fat-tree-128.yaml"),
                                               {"cluster.accelerator.memory=96GiB", "cluster.nodes=8"}, presets_dir());
  EXPECT_NE(first.resolved_yaml.find("memory: 96GiB"), std::string::npos);
  EXPECT_NE(first.resolved_yaml.find("radix: 64"), std::string::npos);
  EXPECT_EQ(first.resolved_yaml.find("preset:"), std::string::npos);
  const models::Scenario again = load_scenario(write_temp(first.resolved_yaml), {}, presets_dir());
  EXPECT_EQ(again.resolved_yaml, first.resolved_yaml);
  EXPECT_EQ(again.name, first.name);
  EXPECT_EQ(again.cluster.nodes, 8u);
  EXPECT_EQ(again.cluster.accelerator.memory_bytes, 96ull << 30);
  EXPECT_EQ(again.cluster.accelerator.source, first.cluster.accelerator.source);
  EXPECT_EQ(again.cluster.scale_out.switch_spec.idle_watts, first.cluster.scale_out.switch_spec.idle_watts);
  EXPECT_EQ(again.cluster.scale_up.latency, first.cluster.scale_up.latency);
  EXPECT_EQ(again.simulation.end, first.simulation.end);
}

TEST(Loader, QuotedStringsStayStrings) {
  std::string text = kMinimalScenario;
  text.replace(0, std::string("name: minimal").size(), "name: \"null\"\ndescription: 'yes: really'");
  const models::Scenario s = load_text(text);
  EXPECT_EQ(s.name, "null");
  EXPECT_EQ(s.description, "yes: really");
  EXPECT_EQ(load_text(s.resolved_yaml).name, "null");
}

TEST(Loader, PresetDirectoryComesFromTheEnvironment) {
  ::setenv("RACKSCALE_PRESETS", "/nonexistent/presets", 1);
  EXPECT_EQ(presets_directory(), "/nonexistent/presets");
  const std::string message = [] {
    try {
      (void)load_scenario(example("fat-tree-128.yaml"), {});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  ::unsetenv("RACKSCALE_PRESETS");
  EXPECT_EQ(message,
            example("fat-tree-128.yaml") +
                ":10:16: cluster.accelerator: expected an accelerator preset, found 'h100-sxm5-80gb'; there are "
                "none in /nonexistent/presets/accelerators (set RACKSCALE_PRESETS to the presets directory)");
  EXPECT_EQ(presets_directory(), presets_dir());
  EXPECT_EQ(load_error(example("fat-tree-128.yaml")), "");
}

TEST(Loader, ErrorInsideAPresetFileNamesThatFile) {
  const std::string bad_presets = source_dir() + "/tests/io/bad_presets";
  const std::string path = write_temp(R"(cluster:
  nodes: 1
  nics_per_node: 0
  accelerator: broken
workload: {type: traffic, pattern: ring, bytes: 1MiB}
)");
  EXPECT_EQ(load_error(path, {}, bad_presets),
            bad_presets +
                "/accelerators/broken.yaml:4:9: cluster.accelerator.memory: expected a size with a unit, such "
                "as 64KiB or 80GB, found 80");
  // The scenario can mend it.
  EXPECT_EQ(load_error(path, {"cluster.accelerator.memory=80GiB"}, bad_presets), "");
}

TEST(Loader, UnreadableFile) {
  EXPECT_EQ(load_error("/nonexistent/x.yaml"), "/nonexistent/x.yaml: cannot open the file: No such file or directory");
}

}  // namespace
}  // namespace rackscale::io::test
