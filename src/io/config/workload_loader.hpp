#pragma once
// The `workload:` section of a scenario: synthetic traffic, an nccl-tests style collective sweep, or a
// training job (a transformer, from a model preset or written out, and its parallelism). Keys are
// documented in docs/config.md ("Workloads").
//
// Model presets are YAML files in <presets>/models/NAME.yaml, one model each with its source; software
// stacks in <presets>/stacks/NAME.yaml. `workload.model` and `workload.stack` accept a preset name, a
// mapping with `preset:` and fields to replace, or a full mapping, exactly like the hardware presets
// (io/config/presets.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

// The key paths of the fields that take a model and a software-stack preset, and the stack of a training
// job that names none.
inline constexpr const char* kModelPresetPath = "workload.model";
inline constexpr const char* kStackPresetPath = "workload.stack";
inline constexpr const char* kDefaultStack = "megatron_core";

// The model (software stack) preset names in `presets_dir`/models (/stacks), file names without .yaml,
// sorted.
[[nodiscard]] std::vector<std::string> model_preset_names(const std::string& presets_dir);
[[nodiscard]] std::vector<std::string> stack_preset_names(const std::string& presets_dir);

// If the scenario's workload.model is a preset name or a mapping with `preset`, replaces it by the
// preset's mapping with the written keys laid over it (keeping every value's origin); the same for
// workload.stack, which is the default stack (kDefaultStack) when a training job names none. Throws
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
// A software-stack preset by name (tests, tools). Throws ConfigError.
[[nodiscard]] models::workload::StackSpec load_stack_preset(const std::string& name, const std::string& presets_dir);

}  // namespace rackscale::io
