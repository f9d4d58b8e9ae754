#pragma once
// Shared helpers of the config tests: paths into the source tree and scenario text written to files.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"

namespace rackscale::io::test {

inline std::string source_dir() { return RACKSCALE_SOURCE_DIR; }
inline std::string presets_dir() { return source_dir() + "/configs/presets"; }
inline std::string example(const std::string& name) { return source_dir() + "/configs/examples/" + name; }

// Writes `text` to a fresh file in the test temp directory and returns its path.
inline std::string write_temp(const std::string& text, const std::string& stem = "scenario") {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::path(::testing::TempDir()) / "rackscale_config_tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / (stem + "_" + std::to_string(counter++) + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

inline models::Scenario load_text(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_scenario(write_temp(text), overrides, presets_dir());
}

// The ConfigError message of loading `path`, or "" if it loads.
inline std::string load_error(const std::string& path, const std::vector<std::string>& overrides = {},
                              const std::string& presets = presets_dir()) {
  try {
    (void)load_scenario(path, overrides, presets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// A small valid scenario for tests that change one thing.
inline constexpr const char* kMinimalScenario = R"(name: minimal
cluster:
  nodes: 2
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_out:
    topology: fat_tree
    switch: quantum2-qm9700
    fat_tree: {tiers: 2}
workload: {type: traffic, pattern: ring, bytes: 1MiB}
)";

}  // namespace rackscale::io::test
