// --set key.path=value: applied to the tree before validation, checked like the file, and named in
// messages when wrong.
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"

namespace rackscale::io::test {
namespace {

namespace net = models::network;

models::Scenario with(const std::vector<std::string>& overrides) {
  return load_scenario(example("fat-tree-128.yaml"), overrides, presets_dir());
}
std::string error_with(const std::vector<std::string>& overrides) {
  return load_error(example("fat-tree-128.yaml"), overrides);
}

TEST(Overrides, ReplaceScalarsAndSequences) {
  const models::Scenario s = with({"cluster.nodes=32", "cluster.scale_out.fat_tree.oversubscription=[2]",
                                   "workload.pattern=incast", "workload.senders=7", "name=renamed"});
  EXPECT_EQ(s.cluster.nodes, 32u);
  EXPECT_EQ(s.cluster.scale_out.fat_tree.oversubscription, (std::array<double, 2>{2, 1}));
  EXPECT_EQ(s.workload.traffic.pattern, models::TrafficPattern::incast);
  EXPECT_EQ(s.workload.traffic.senders, 7u);
  EXPECT_EQ(s.name, "renamed");
  EXPECT_EQ(s.key_locations.at("cluster.nodes"), "--set cluster.nodes=32");
  EXPECT_EQ(s.locate("cluster.nodes"), "--set cluster.nodes=32: ");
  // Untouched keys keep their file positions.
  EXPECT_EQ(s.key_locations.at("cluster"), example("fat-tree-128.yaml") + ":5:1");
}

TEST(Overrides, LaterOverridesWin) { EXPECT_EQ(with({"cluster.nodes=32", "cluster.nodes=64"}).cluster.nodes, 64u); }

TEST(Overrides, SwapAPresetOrChangeOneOfItsFields) {
  EXPECT_EQ(with({"cluster.accelerator=mi300x"}).cluster.accelerator.name, "mi300x");
  const models::Scenario changed = with({"cluster.accelerator.memory=96GiB"});
  EXPECT_EQ(changed.cluster.accelerator.name, "h100-sxm5-80gb");
  EXPECT_EQ(changed.cluster.accelerator.memory_bytes, 96ull << 30);
  EXPECT_EQ(changed.cluster.accelerator.tdp_watts, 700.0);
  EXPECT_EQ(with({"cluster.nic.preset=connectx8-800g"}).cluster.nic.bandwidth, 1e11);
  EXPECT_EQ(with({"cluster.nic={preset: connectx6-hdr-200g, latency: 1us}"}).cluster.nic.latency, pdes::kMicrosecond);
  EXPECT_EQ(with({"cluster.scale_out.switch.latency=300ns"}).cluster.scale_out.switch_spec.latency,
            300 * pdes::kNanosecond);
}

TEST(Overrides, CreateMissingSections) {
  const models::Scenario s = with({"simulation.partition=round_robin", "network.fidelity=chunk"});
  EXPECT_EQ(s.simulation.partition, "round_robin");
  EXPECT_EQ(s.network.fidelity, net::Fidelity::chunk);
}

TEST(Overrides, UnknownKeyNamesTheOverride) {
  EXPECT_EQ(error_with({"cluster.nodez=4"}),
            "--set cluster.nodez=4: unknown key 'nodez' in cluster; did you mean 'nodes'?");
  EXPECT_EQ(error_with({"clustr.nodes=4"}),
            "--set clustr.nodes=4: unknown key 'clustr' at the top level; did you mean 'cluster'?");
  EXPECT_EQ(
      error_with({"cluster.accelerator.memroy=1GiB"}),
      "--set cluster.accelerator.memroy=1GiB: unknown key 'memroy' in cluster.accelerator; did you mean 'memory'?");
}

TEST(Overrides, BadValuesNameTheOverride) {
  EXPECT_EQ(error_with({"cluster.nodes=-4"}),
            "--set cluster.nodes=-4: cluster.nodes: expected an integer >= 1, found -4");
  EXPECT_EQ(error_with({"cluster.nodes=eight"}),
            "--set cluster.nodes=eight: cluster.nodes: expected an integer, found 'eight'");
  EXPECT_EQ(
      error_with({"cluster.nic.bandwidth=400"}),
      "--set cluster.nic.bandwidth=400: cluster.nic.bandwidth: expected a bandwidth with a unit, such as 400Gbps or "
      "50GB/s, found 400");
  EXPECT_EQ(error_with({"cluster.nodes="}), "--set cluster.nodes=: cluster.nodes: expected an integer, found nothing");
  EXPECT_EQ(
      error_with({"cluster.scale_out.dragonfly.groups=4"}),
      "--set cluster.scale_out.dragonfly.groups=4: cluster.scale_out.dragonfly: only allowed with topology: dragonfly");
}

TEST(Overrides, MalformedOverrides) {
  EXPECT_EQ(error_with({"cluster.nodes"}),
            "--set cluster.nodes: expected key.path=value, for example cluster.nodes=64");
  EXPECT_EQ(error_with({"=4"}), "--set =4: expected key.path=value, for example cluster.nodes=64");
  EXPECT_EQ(error_with({"cluster..nodes=4"}), "--set cluster..nodes=4: empty key in 'cluster..nodes'");
  EXPECT_EQ(error_with({"cluster.nodes.count=4"}), "--set cluster.nodes.count=4: cluster.nodes is 16 (at " +
                                                       example("fat-tree-128.yaml") + ":6:10), not a mapping");
  EXPECT_EQ(error_with({"cluster.nodes=[1,"}).rfind("--set cluster.nodes=[1,: YAML syntax error: ", 0), 0u);
}

}  // namespace
}  // namespace rackscale::io::test
