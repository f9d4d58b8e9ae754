#pragma once
// Scenario YAML -> models::Scenario, validated in full before anything simulates. The keys, their types,
// units and defaults are documented in docs/config.md.
//
// Steps: parse the file; apply the --set overrides to the tree; replace preset names by the preset
// files' contents (overrides laid over them); record the merged tree (Scenario::resolved_yaml); read
// and check every value, recording where each key was written (Scenario::key_locations).
#include <string>
#include <vector>

#include "models/scenario.hpp"

namespace rackscale::io {

// `overrides` are "key.path=value" strings from --set, applied in order. Presets come from
// presets_directory() (io/config/presets.hpp). Throws ConfigError, whose what() is one line:
//   configs/x.yaml:12:5: cluster.scale_out.fat_tree.oversubscription: expected a number >= 1, found -2
[[nodiscard]] models::Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides);
// The same with an explicit presets directory (tests, tools).
[[nodiscard]] models::Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides,
                                             const std::string& presets_dir);

}  // namespace rackscale::io
