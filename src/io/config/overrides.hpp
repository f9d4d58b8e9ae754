#pragma once
// --set key.path=value: changes to the config tree made before it is validated, so an override is
// checked exactly like the file (and reported as "--set key.path=value: ..." when it is wrong).
#include <functional>
#include <string>

#include "io/config/config_node.hpp"

namespace rackscale::io {

// Applies one "key.path=value" to `root`. The value is parsed as YAML (a scalar, or a flow sequence or
// mapping: "[8, 8, 8]", "{preset: connectx7-400g}"). Missing mappings along the path are created;
// keys that are not valid there are caught when the tree is read. `takes_preset(path)` says which
// fields accept a preset name: setting "cluster.accelerator.memory" where the file wrote
// "accelerator: h100-sxm5-80gb" turns the name into {preset: h100-sxm5-80gb, memory: ...}.
// Throws ConfigError for a malformed override or a path that runs through a value that is not a mapping.
void apply_override(ConfigNode& root, const std::string& assignment,
                    const std::function<bool(const std::string& path)>& takes_preset);

}  // namespace rackscale::io
