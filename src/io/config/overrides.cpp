#include "io/config/overrides.hpp"

#include <vector>

#include "io/config/config_error.hpp"
#include "io/config/yaml_reader.hpp"

namespace rackscale::io {

void apply_override(ConfigNode& root, const std::string& assignment,
                    const std::function<bool(const std::string& path)>& takes_preset) {
  const std::string shown = "--set " + assignment;
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0)
    throw ConfigError(shown + ": expected key.path=value, for example cluster.nodes=64");
  const std::string key_path = assignment.substr(0, equals);
  std::vector<std::string> keys;
  for (std::size_t start = 0;;) {
    const auto dot = key_path.find('.', start);
    keys.push_back(key_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (keys.back().empty()) throw ConfigError(shown + ": empty key in '" + key_path + "'");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }

  Origin origin;
  origin.override_text = shown;
  ConfigNode value = parse_yaml_text(assignment.substr(equals + 1), origin, key_path);

  ConfigNode* node = &root;
  std::string path;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (node->is_scalar() && takes_preset(path)) {
      // A preset name written in the file: keep it and lay the override over it.
      ConfigNode name = std::move(*node);
      *node = ConfigNode{};
      node->kind = ConfigNode::Kind::mapping;
      node->origin = name.origin;
      node->entries.push_back(ConfigEntry{"preset", name.origin, std::move(name)});
    }
    if (node->is_null() && i > 0) {
      // "dragonfly:" written with nothing after it, or a mapping this override is creating.
      node->kind = ConfigNode::Kind::mapping;
    }
    if (!node->is_mapping())
      throw ConfigError(shown + ": " + path + " is " + describe_found(*node) + " (at " + node->origin.str() +
                        "), not a mapping");
    path = join_path(path, keys[i]);
    ConfigEntry* entry = node->find(keys[i]);
    if (entry == nullptr) {
      ConfigNode fresh;
      fresh.origin = origin;
      node->entries.push_back(ConfigEntry{keys[i], origin, std::move(fresh)});
      entry = &node->entries.back();
    }
    // The overridden key now says what the override says: errors and Scenario::locate point at it.
    if (i + 1 == keys.size()) entry->key_origin = origin;
    node = &entry->value;
  }
  *node = std::move(value);
}

}  // namespace rackscale::io
