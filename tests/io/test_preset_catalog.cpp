// `rackscale presets` figures (src/io/preset_catalog): each kind lists its files, and a preset's
// fields carry the figures its file writes, converted to SI base units.
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"
#include "io/preset_catalog.hpp"

namespace rackscale::io::test {
namespace {

const PresetField& field_of(const PresetEntry& entry, const std::string& key) {
  for (const auto& f : entry.fields)
    if (f.key == key) return f;
  throw std::out_of_range(key);
}

TEST(PresetCatalog, EveryKindListsItsFiles) {
  for (const auto& kind : preset_kinds()) {
    const auto names = preset_names_of(kind, presets_dir());
    EXPECT_FALSE(names.empty()) << kind;
    for (const auto& name : names) {
      SCOPED_TRACE(kind + "/" + name);
      const PresetEntry entry = describe_preset(kind, name, presets_dir());
      EXPECT_FALSE(entry.summary.empty());
      EXPECT_FALSE(entry.source.empty());
      const auto j = preset_json(entry);
      EXPECT_EQ(j["kind"], singular_kind(kind));
      EXPECT_EQ(j["name"], name);
    }
  }
}

TEST(PresetCatalog, AcceleratorFiguresAsTheFileWritesThem) {
  // configs/presets/accelerators/h100-sxm5-80gb.yaml: 989.4TFLOPS, 1979TFLOPS, 80GiB, 3.35TB/s, 700W, 1us.
  const PresetEntry h100 = describe_preset("accelerators", "h100-sxm5-80gb", presets_dir());
  EXPECT_EQ(h100.summary, "989.4 TFLOP/s BF16, 1979 TFLOP/s FP8, 80 GiB at 3.35 TB/s, 700 W");
  EXPECT_EQ(field_of(h100, "memory").json, 80ULL << 30);
  EXPECT_EQ(field_of(h100, "memory").json_key, "memory_bytes");
  EXPECT_DOUBLE_EQ(field_of(h100, "memory_bandwidth").json.get<double>(), 3.35e12);
  EXPECT_EQ(field_of(h100, "kernel_overhead").json, 1'000'000u);  // ps
  EXPECT_EQ(field_of(h100, "kernel_overhead").text, "1 us");
  EXPECT_EQ(field_of(h100, "tdp").json_key, "tdp_W");
}

TEST(PresetCatalog, NicAndSwitchFigures) {
  // connectx7-400g: 400 Gb/s = 50e9 bytes/s. quantum2-qm9700: 64 ports of 400 Gb/s, 200 ns; at full load
  // 525 W idle + 64 ports x 3.5 W.
  const PresetEntry nic = describe_preset("nics", "connectx7-400g", presets_dir());
  EXPECT_DOUBLE_EQ(field_of(nic, "bandwidth").json.get<double>(), 50e9);
  EXPECT_EQ(nic.summary, "400 Gb/s, 600 ns injection latency, 25 W active");
  const PresetEntry sw = describe_preset("switches", "quantum2-qm9700", presets_dir());
  EXPECT_EQ(sw.summary, "64 x 400 Gb/s, 200 ns port to port, 749 W active");
}

TEST(PresetCatalog, ModelParametersByHand) {
  // GPT-3 175B: 96 layers of 12 h^2 (attention 4 h^2, MLP 8 h^2) with h = 12288, tied embeddings of
  // 50257 x h, and two LayerNorms (gain and bias, 2 h each) per layer plus a final one:
  // 173,946,175,488 + 617,558,016 + 4,743,168 = 174,568,476,672 parameters.
  const PresetEntry gpt3 = describe_preset("models", "gpt3-175b", presets_dir());
  const std::uint64_t h = 12288;
  const std::uint64_t by_hand = 96 * 12 * h * h + 50257 * h + 2 * (2 * 96 + 1) * h;
  EXPECT_EQ(by_hand, 174'568'476'672u);
  EXPECT_EQ(field_of(gpt3, "parameters").json, by_hand);
  EXPECT_EQ(gpt3.summary.rfind("174.6 B parameters, 96 layers, hidden 12288, 96 heads, sequence 2048", 0), 0u);
  EXPECT_EQ(field_of(gpt3, "ffn_hidden").json, 49152u);
}

TEST(PresetCatalog, UnknownNameIsAConfigErrorWithASuggestion) {
  try {
    (void)describe_preset("accelerators", "h100-sxm5-80g", presets_dir());
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'h100-sxm5-80gb'?"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rackscale::io::test
