#pragma once
// A parsed YAML document that remembers where every key and value came from. yaml-cpp's own nodes
// carry a line and column but not the file, and merging presets and --set overrides into one tree
// would lose which file (or override) each value belongs to; this tree keeps the origin on every node
// so a message about a value in a preset names the preset file, and one about an override names it.
#include <string>
#include <string_view>
#include <vector>

namespace rackscale::io {

// Where a piece of config text came from: a position in a file, or a --set override.
struct Origin {
  std::string file;
  int line = 0;               // 1-based; 0 when unknown
  int column = 0;             // 1-based
  std::string override_text;  // "--set cluster.nodes=4" for values given on the command line

  [[nodiscard]] bool from_override() const { return !override_text.empty(); }
  // "file:12:5", "--set a.b=c" or "file".
  [[nodiscard]] std::string str() const;
};

struct ConfigEntry;

struct ConfigNode {
  enum class Kind { null, scalar, sequence, mapping };
  Kind kind = Kind::null;
  std::string scalar;                // the text as written, quotes removed
  bool quoted = false;               // written in quotes; emitted in quotes again so it reads back the same
  std::vector<ConfigNode> items;     // sequence
  std::vector<ConfigEntry> entries;  // mapping, in the order written
  Origin origin;                     // where the value starts

  [[nodiscard]] bool is_null() const { return kind == Kind::null; }
  [[nodiscard]] bool is_scalar() const { return kind == Kind::scalar; }
  [[nodiscard]] bool is_sequence() const { return kind == Kind::sequence; }
  [[nodiscard]] bool is_mapping() const { return kind == Kind::mapping; }
  [[nodiscard]] const ConfigEntry* find(std::string_view key) const;
  [[nodiscard]] ConfigEntry* find(std::string_view key);
  // Removes the entry for `key`, if any.
  void erase(std::string_view key);
};

struct ConfigEntry {
  std::string key;
  Origin key_origin;
  ConfigNode value;
};

// Reads and parses a YAML file (config_parse.cpp). A ConfigError naming the file and line for: an
// unreadable file, a YAML syntax error, a NUL byte, a second document, a non-scalar key, a key written
// twice in one mapping, a tag (!foo, !!binary), an alias inside the value it names, and aliases copying
// more than kMaxAliasCopies values (yaml_tree_builder.hpp). Other aliases are expanded.
[[nodiscard]] ConfigNode parse_yaml_file(const std::string& path);
// Parses YAML text from the command line, with the same checks; every node gets `origin`. Messages
// name values below `path`, the key the text is given for.
[[nodiscard]] ConfigNode parse_yaml_text(const std::string& text, const Origin& origin, const std::string& path = "");

// Block-style YAML of the tree (sequences of scalars in flow style), for Scenario::resolved_yaml.
[[nodiscard]] std::string emit_yaml(const ConfigNode& node);

// How a value is described after "found": "nothing", "a mapping", "a sequence", -2, 'eight'.
[[nodiscard]] std::string describe_found(const ConfigNode& node);

}  // namespace rackscale::io
