// The hardware presets in configs/presets: the required ones exist, every file writes every field and
// its sources, and the figures land as the reference gives them.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"
#include "io/config/config_node.hpp"
#include "io/config/presets.hpp"
#include "io/config/scenario_loader.hpp"

namespace rackscale::io::test {
namespace {

const std::vector<std::string> kAcceleratorKeys{
    "name", "peak_bf16_flops", "peak_fp8_flops", "memory",       "memory_bandwidth",
    "tdp",  "idle_power",      "process_nm",     "die_area_mm2", "matmul_efficiency", "matmul_half_dimension",
    "vector_efficiency", "memory_efficiency", "kernel_overhead", "nvlink_multicast", "source"};
const std::vector<std::string> kNicKeys{"name",       "bandwidth", "latency",      "efficiency", "active_power",
                                        "idle_power", "price",     "die_area_mm2", "process_nm", "source"};
const std::vector<std::string> kSwitchKeys{"name",       "radix",      "port_bandwidth", "latency",      "nvls_reduce_bandwidth",
                                           "idle_power", "port_power", "price",          "die_area_mm2", "process_nm",
                                           "source"};
const std::vector<std::string> kOpticsKeys{"name",      "port_bandwidth", "transceiver_power", "transceiver_price",
                                           "fiber_price", "dac_price",    "die_area_mm2",      "process_nm",
                                           "source"};

void expect_complete(PresetKind kind, const std::vector<std::string>& keys) {
  const auto names = preset_names(kind, presets_dir());
  EXPECT_FALSE(names.empty());
  for (const auto& name : names) {
    const std::string file = presets_dir() + "/" + preset_subdirectory(kind) + "/" + name + ".yaml";
    SCOPED_TRACE(file);
    const ConfigNode tree = parse_yaml_file(file);
    ASSERT_TRUE(tree.is_mapping());
    std::vector<std::string> written;
    for (const auto& e : tree.entries) written.push_back(e.key);
    EXPECT_EQ(written, keys);  // every field, in the documented order
    ASSERT_NE(tree.find("name"), nullptr);
    EXPECT_EQ(tree.find("name")->value.scalar, name);
    EXPECT_NE(tree.find("source")->value.scalar.find("data/reference"), std::string::npos);
  }
}

TEST(Presets, EveryFileWritesEveryFieldAndItsSource) {
  expect_complete(PresetKind::accelerator, kAcceleratorKeys);
  expect_complete(PresetKind::nic, kNicKeys);
  expect_complete(PresetKind::switch_spec, kSwitchKeys);
  expect_complete(PresetKind::optics, kOpticsKeys);
}

TEST(Presets, EveryPresetLoads) {
  for (const auto& name : preset_names(PresetKind::accelerator, presets_dir())) {
    const auto a = load_accelerator_preset(name, presets_dir());
    EXPECT_EQ(a.name, name);
    EXPECT_GT(a.peak_bf16_flops, 0);
    EXPECT_GT(a.memory_bytes, 0u);
    EXPECT_GT(a.tdp_watts, a.idle_watts);
  }
  for (const auto& name : preset_names(PresetKind::nic, presets_dir()))
    EXPECT_GT(load_nic_preset(name, presets_dir()).bandwidth, 0);
  for (const auto& name : preset_names(PresetKind::switch_spec, presets_dir()))
    EXPECT_GT(load_switch_preset(name, presets_dir()).radix, 0u);
  for (const auto& name : preset_names(PresetKind::optics, presets_dir())) {
    const auto o = load_optics_preset(name, presets_dir());
    EXPECT_GT(o.port_bandwidth, 0);
    EXPECT_GT(o.transceiver_watts, 0);  // optics draw power: not "not counted"
  }
}

TEST(Presets, TheRequiredOnesExist) {
  const auto has_all = [](PresetKind kind, const std::vector<std::string>& required) {
    const auto names = preset_names(kind, presets_dir());
    const std::set<std::string> present(names.begin(), names.end());
    for (const auto& r : required) EXPECT_EQ(present.count(r), 1u) << r;
  };
  has_all(PresetKind::accelerator, {"a100-sxm4-80gb", "h100-sxm5-80gb", "h200-sxm-141gb", "b200-hgx", "b200-gb200",
                                    "mi300x", "tpu-v5p", "v100-sxm2-32gb"});
  has_all(PresetKind::nic, {"connectx6-hdr-200g", "connectx7-400g", "connectx8-800g"});
  has_all(PresetKind::switch_spec, {"quantum-qm8700-hdr", "quantum2-qm9700", "quantum-x800-q3400", "spectrum4-sn5600",
                                    "nvswitch-gen2", "nvswitch-gen3", "nvswitch-gen4-nvl72"});
  has_all(PresetKind::optics, {"hdr-200g", "ndr-400g", "xdr-800g"});
}

TEST(Presets, FiguresFromTheReference) {
  const std::string dir = presets_dir();
  const auto a100 = load_accelerator_preset("a100-sxm4-80gb", dir);
  EXPECT_EQ(a100.peak_bf16_flops, 312e12);
  EXPECT_EQ(a100.peak_fp8_flops, 0.0);
  EXPECT_EQ(a100.memory_bandwidth, 2.039e12);
  EXPECT_EQ(a100.tdp_watts, 400.0);
  const auto b200 = load_accelerator_preset("b200-gb200", dir);
  EXPECT_EQ(b200.peak_bf16_flops, 2.5e15);
  EXPECT_EQ(b200.peak_fp8_flops, 5e15);
  EXPECT_EQ(b200.tdp_watts, 1200.0);
  const auto mi300x = load_accelerator_preset("mi300x", dir);
  EXPECT_EQ(mi300x.memory_bytes, 192ull << 30);
  EXPECT_EQ(mi300x.memory_bandwidth, 5.3e12);
  const auto v100 = load_accelerator_preset("v100-sxm2-32gb", dir);
  EXPECT_EQ(v100.die_area_mm2, 815.0);
  EXPECT_EQ(v100.process_nm, 12.0);

  EXPECT_EQ(load_nic_preset("connectx6-hdr-200g", dir).bandwidth, 2.5e10);
  EXPECT_EQ(load_nic_preset("connectx8-800g", dir).bandwidth, 1e11);

  const auto qm8700 = load_switch_preset("quantum-qm8700-hdr", dir);
  EXPECT_EQ(qm8700.radix, 40u);
  EXPECT_EQ(qm8700.port_bandwidth, 2.5e10);
  const auto q3400 = load_switch_preset("quantum-x800-q3400", dir);
  EXPECT_EQ(q3400.radix, 144u);
  EXPECT_EQ(q3400.port_bandwidth, 1e11);
  const auto sn5600 = load_switch_preset("spectrum4-sn5600", dir);
  EXPECT_EQ(sn5600.radix * sn5600.port_bandwidth * 8, 51.2e12);  // 51.2 Tb/s
  EXPECT_EQ(load_switch_preset("nvswitch-gen4-nvl72", dir).radix, 72u);

  // NVLink SHARP: Hopper and later GPUs on NVSwitch; gen3's reduction rate calibrated to 480 GB/s of NVLS
  // all-reduce bus bandwidth on 8 H100s (480 x 8 / 14 = 274 GB/s per GPU).
  EXPECT_TRUE(load_accelerator_preset("h100-sxm5-80gb", dir).nvlink_multicast);
  EXPECT_TRUE(load_accelerator_preset("h200-sxm-141gb", dir).nvlink_multicast);
  EXPECT_FALSE(a100.nvlink_multicast);
  EXPECT_FALSE(mi300x.nvlink_multicast);
  EXPECT_EQ(load_switch_preset("nvswitch-gen3", dir).nvls_reduce_bandwidth, 274e9);
  EXPECT_EQ(qm8700.nvls_reduce_bandwidth, 0.0);

  // Second-generation NVSwitch (DGX A100): NVLink3 links of 25 GB/s each way, 12 of them per A100 giving
  // the reference's 600 GB/s bidirectional; 36 ports per chip; no in-switch reduction.
  const auto gen2 = load_switch_preset("nvswitch-gen2", dir);
  EXPECT_EQ(gen2.radix, 36u);
  EXPECT_EQ(gen2.port_bandwidth, 25e9);
  EXPECT_EQ(2 * 12 * gen2.port_bandwidth, 600e9);
  EXPECT_EQ(gen2.nvls_reduce_bandwidth, 0.0);
}

// Every shipped scenario puts its GPUs on their own generation of NVSwitch: A100s (NVLink3, 12 links per
// GPU) on nvswitch-gen2, H100s and H200s (NVLink4, 18 links) on nvswitch-gen3, and the scale-up bandwidth
// each way is the GPU's links at the switch's per-link rate (the reference's 600 and 900 GB/s
// bidirectional, halved).
TEST(Presets, ScenariosUseTheirGpusNvSwitchGeneration) {
  int checked = 0;
  for (const char* folder : {"/configs/examples", "/configs/training", "/configs/clusters"})
    for (const auto& entry : std::filesystem::directory_iterator(source_dir() + folder)) {
      if (entry.path().extension() != ".yaml") continue;
      SCOPED_TRACE(entry.path().string());
      const models::Scenario s = load_scenario(entry.path().string(), {}, presets_dir());
      const auto& up = s.cluster.scale_up;
      if (up.kind != models::network::ScaleUpKind::nvswitch) continue;
      const std::string& gpu = s.cluster.accelerator.name;
      const bool a100 = gpu.rfind("a100", 0) == 0, hopper = gpu.rfind("h100", 0) == 0 || gpu.rfind("h200", 0) == 0;
      if (!a100 && !hopper) continue;
      EXPECT_EQ(up.switch_spec.name, a100 ? "nvswitch-gen2" : "nvswitch-gen3");
      EXPECT_EQ(up.bandwidth, (a100 ? 12 : 18) * up.switch_spec.port_bandwidth);
      ++checked;
    }
  EXPECT_GE(checked, 10);
}

TEST(Presets, UnknownNameListsTheAvailableOnes) {
  try {
    (void)load_nic_preset("connectx7", presets_dir());
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(
        e.what(),
        "preset 'connectx7': expected a NIC preset (one of connectx6-hdr-200g, connectx7-400g, connectx8-800g), "
        "found 'connectx7'; did you mean 'connectx7-400g'?");
  }
  // Names cannot climb out of the presets directory.
  EXPECT_THROW((void)load_switch_preset("../switches/quantum2-qm9700", presets_dir()), ConfigError);
}

}  // namespace
}  // namespace rackscale::io::test
