#pragma once
// The `workload:` section of a scenario: synthetic traffic, an nccl-tests style collective sweep, or a
// training job (a transformer, from a model preset or written out, and its parallelism). Keys are
// documented in docs/config.md ("Workloads").
//
// Model presets are YAML files in <presets>/models/NAME.yaml, one model each with its source.
// `workload.model` accepts a preset name, a mapping with `preset:` and fields to replace, or a full
// mapping, exactly like the hardware presets (io/config/presets.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

// The key path of the field that takes a model preset.
inline constexpr const char* kModelPresetPath = "workload.model";

// The model preset names in `presets_dir`/models (file names without .yaml), sorted.
[[nodiscard]] std::vector<std::string> model_preset_names(const std::string& presets_dir);

// If the scenario's workload.model is a preset name or a mapping with `preset`, replaces it by the
// preset's mapping with the written keys laid over it (keeping every value's origin). Throws
// ConfigError for an unknown preset, listing the available ones.
void resolve_model_preset(ConfigNode& root, const std::string& presets_dir);

// Reads the resolved `workload` mapping for `cluster`, recording key locations. A training job's layout
// is validated here (models::workload::TrainingLayout), and fp8 against the accelerator: errors become
// ConfigErrors located at the value at fault.
[[nodiscard]] models::WorkloadSpec read_workload(const ConfigNode& node, const models::network::ClusterSpec& cluster,
                                                 KeyLocations* locations);

// A model preset by name (tests, tools). Throws ConfigError.
[[nodiscard]] models::workload::TransformerSpec load_model_preset(const std::string& name,
                                                                  const std::string& presets_dir);

}  // namespace rackscale::io
