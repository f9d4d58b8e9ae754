// count_topology (the memory estimate's input) gives the devices, switches, ports and racks that
// build_topology builds, for every cluster config in the repository and resized variants of them
// (every topology: fat trees of 1-3 tiers, rail-optimized, dragonfly, torus, NVSwitch and mesh
// scale-up, a single domain), without building.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/config/scenario_loader.hpp"
#include "models/network/build_topology.hpp"

namespace {

namespace net = rackscale::models::network;
namespace fs = std::filesystem;

void expect_counts_match(const std::string& path, const std::vector<std::string>& overrides) {
  SCOPED_TRACE(path + (overrides.empty() ? "" : " --set " + overrides.front()));
  const auto scenario = rackscale::io::load_scenario(path, overrides);
  const net::TopologySize size = net::count_topology(scenario.cluster);
  const net::Topology built = net::build_topology(scenario.cluster, scenario.network.routing);
  std::uint64_t compute_racks = 0;
  for (const auto& rack : built.racks) compute_racks += rack.kind == net::RackKind::compute ? 1 : 0;
  EXPECT_EQ(size.devices, built.device_count());
  EXPECT_EQ(size.switches, built.switch_count());
  EXPECT_EQ(size.nodes(), built.nodes.size());
  EXPECT_EQ(size.ports, built.ports.size());
  EXPECT_EQ(size.racks, built.racks.size());
  EXPECT_EQ(size.compute_racks, compute_racks);
}

std::vector<std::string> repository_configs() {
  std::vector<std::string> paths;
  for (const char* dir : {"configs/clusters", "configs/examples", "configs/training", "tests/models/configs",
                          "tests/collectives/configs"})
    for (const auto& entry : fs::directory_iterator(fs::path(RACKSCALE_SOURCE_DIR) / dir))
      if (entry.path().extension() == ".yaml") paths.push_back(entry.path().string());
  return paths;
}

TEST(TopologySize, MatchesTheBuiltTopologyOfEveryRepositoryConfig) {
  const auto paths = repository_configs();
  ASSERT_GE(paths.size(), 15u);
  for (const auto& path : paths) expect_counts_match(path, {});
}

TEST(TopologySize, MatchesResizedClusters) {
  const std::string dir = std::string(RACKSCALE_SOURCE_DIR) + "/configs/";
  // Fat trees of one, two and three tiers, partial racks and pods.
  for (const char* nodes : {"1", "3", "7", "130", "1000", "5000"})
    expect_counts_match(dir + "clusters/h100-98304-fat-tree.yaml", {std::string("cluster.nodes=") + nodes});
  for (const char* nodes : {"2", "33", "129"})
    expect_counts_match(dir + "examples/rail-fat-tree-1024.yaml", {std::string("cluster.nodes=") + nodes});
  expect_counts_match(dir + "examples/dragonfly-256.yaml",
                      {"cluster.scale_up={kind: mesh, domain_devices: 4, bandwidth: 100GB/s, latency: 500ns}"});
  expect_counts_match(dir + "examples/gb200-nvl72-288.yaml", {"cluster.nodes=36"});
}

TEST(TopologySize, RefusesWhatBuildTopologyRefuses) {
  auto scenario = rackscale::io::load_scenario(std::string(RACKSCALE_SOURCE_DIR) + "/configs/examples/fat-tree-128.yaml", {});
  scenario.cluster.nodes = 0;
  EXPECT_THROW((void)net::count_topology(scenario.cluster), std::invalid_argument);
}

}  // namespace
