#pragma once
// The presets in a presets directory (configs/presets by default) as `rackscale presets` shows them:
// by kind, each with its key figures on one line, every resolved field for `presets show`, and JSON
// for scripts. Presets are read with the same readers as scenarios, so a broken preset file fails here
// with the same file:line:column ConfigError.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rackscale::io {

// The kinds, in listing order: accelerators, nics, switches, models, stacks (the subdirectories).
[[nodiscard]] const std::vector<std::string>& preset_kinds();

struct PresetField {
  std::string key;             // the YAML key (docs/config.md)
  std::string text;            // the value with its unit, for people: "989.4 TFLOP/s"
  std::string json_key;        // the key in JSON, with its unit when it has one: "memory_bandwidth_Bps"
  nlohmann::ordered_json json; // the value in SI base units (bytes, bytes/s, FLOP/s, W, ps)
};

struct PresetEntry {
  std::string kind;                 // one of preset_kinds()
  std::string name;
  std::string summary;              // the key figures on one line
  std::string source;               // where the figures come from, as the preset file says
  std::vector<PresetField> fields;  // every field, defaults filled in
};

// The preset names of one kind, sorted.
[[nodiscard]] std::vector<std::string> preset_names_of(const std::string& kind, const std::string& directory);

// Reads one preset. Throws ConfigError for an unknown name (with did-you-mean) or a bad preset file.
[[nodiscard]] PresetEntry describe_preset(const std::string& kind, const std::string& name,
                                          const std::string& directory);

// "accelerators" -> "accelerator", "switches" -> "switch".
[[nodiscard]] std::string singular_kind(const std::string& kind);

// {"kind": "accelerator", "name": ..., <json_key>: <json> for every field..., "source": ...}; kind is
// singular (singular_kind).
[[nodiscard]] nlohmann::ordered_json preset_json(const PresetEntry& entry);

}  // namespace rackscale::io
