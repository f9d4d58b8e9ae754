// libFuzzer target for the config loader and --set (docs/reliability.md, "Fuzzing the config loader").
// The input is a scenario file; each of its lines that starts with "#set " (a YAML comment, so the file
// reads the same) is also given as an override, `--set` and the rest of the line. Any bad input must
// end in a ConfigError (exit 2, located) or, from the topology checks, std::invalid_argument; a crash,
// a sanitizer report, a leak, another exception, or a run past libFuzzer's time or memory limit is a
// finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/network/build_topology.hpp"

namespace {

// Larger clusters are valid but take seconds to build: the checks under test are the same for small ones.
constexpr std::uint64_t kMaxDevicesBuilt = 4096;

std::vector<std::string> set_lines(std::string_view text) {
  constexpr std::string_view kPrefix = "#set ";
  std::vector<std::string> overrides;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (line.starts_with(kPrefix)) overrides.emplace_back(line.substr(kPrefix.size()));
    start = end + 1;
  }
  return overrides;
}

// The loader reads a file by name: one per fuzzing process, in the temporary directory.
const std::string& input_path() {
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("rackscale-fuzz-" + std::to_string(getpid()) + ".yaml")).string();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::ofstream(input_path(), std::ios::binary | std::ios::trunc).write(text.data(), static_cast<std::streamsize>(size));
  try {
    const auto scenario = rackscale::io::load_scenario(input_path(), set_lines(text), RACKSCALE_PRESETS_DIR);
    if (scenario.cluster.devices() <= kMaxDevicesBuilt)
      (void)rackscale::models::network::build_topology(scenario.cluster, scenario.network.routing);
  } catch (const rackscale::io::ConfigError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
