#pragma once
// Hardware presets: one YAML file per accelerator, NIC, switch or class of cables under a presets
// directory (accelerators/, nics/, switches/, optics/), each giving every field of the spec and the
// source of its figures.
//
// A scenario field that takes a preset accepts
//   a name:                      accelerator: h100-sxm5-80gb
//   a preset with overrides:     accelerator: {preset: h100-sxm5-80gb, memory: 96GiB}
//   a full mapping:              accelerator: {peak_bf16_flops: 1PFLOPS, memory: 64GiB, ...}
// resolve_preset() turns the first two into the third, keeping each value's origin, so a bad value in
// a preset file is reported at its line in that file and an override at its line in the scenario.
#include <string>
#include <vector>

#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "models/hardware.hpp"

namespace rackscale::io {

enum class PresetKind { accelerator, nic, switch_spec, optics };

// $RACKSCALE_PRESETS if set, else the source tree's configs/presets (compiled in).
[[nodiscard]] std::string presets_directory();
// "accelerators", "nics", "switches", "optics": the subdirectory holding one kind.
[[nodiscard]] std::string preset_subdirectory(PresetKind kind);
// The preset names of a kind (file names without .yaml), sorted.
[[nodiscard]] std::vector<std::string> preset_names(PresetKind kind, const std::string& directory);

// Replaces a preset name, or a mapping with a `preset` key, by the preset's mapping with the written
// keys laid over it; a mapping without `preset` is left as it is. `path` names the field in messages.
// Throws ConfigError for an unknown preset (listing the available ones) or an unreadable preset file.
void resolve_preset(ConfigNode& field, PresetKind kind, const std::string& path, const std::string& directory);

// Reads a resolved spec mapping, recording key locations under `path`. Keys are listed in docs/config.md.
[[nodiscard]] models::AcceleratorSpec read_accelerator(const ConfigNode& node, const std::string& path,
                                                       KeyLocations* locations);
[[nodiscard]] models::NicSpec read_nic(const ConfigNode& node, const std::string& path, KeyLocations* locations);
[[nodiscard]] models::SwitchSpec read_switch(const ConfigNode& node, const std::string& path, KeyLocations* locations);
[[nodiscard]] models::OpticsSpec read_optics(const ConfigNode& node, const std::string& path, KeyLocations* locations);

// A preset by name, for code that wants one without a scenario (tests, tools). Throws ConfigError.
[[nodiscard]] models::AcceleratorSpec load_accelerator_preset(const std::string& name,
                                                              const std::string& directory = presets_directory());
[[nodiscard]] models::NicSpec load_nic_preset(const std::string& name,
                                              const std::string& directory = presets_directory());
[[nodiscard]] models::SwitchSpec load_switch_preset(const std::string& name,
                                                    const std::string& directory = presets_directory());
[[nodiscard]] models::OpticsSpec load_optics_preset(const std::string& name,
                                                    const std::string& directory = presets_directory());

}  // namespace rackscale::io
