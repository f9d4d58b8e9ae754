#include "io/config/config_node.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "io/config/config_error.hpp"
#include "io/config/units.hpp"

namespace rackscale::io {

std::string Origin::str() const {
  if (from_override()) return override_text;
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const ConfigEntry* ConfigNode::find(std::string_view key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

ConfigEntry* ConfigNode::find(std::string_view key) {
  for (auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

void ConfigNode::erase(std::string_view key) {
  std::erase_if(entries, [&](const ConfigEntry& e) { return e.key == key; });
}

namespace {

using MarkToOrigin = std::function<Origin(const YAML::Mark&)>;

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

ConfigNode convert(const YAML::Node& yaml, const MarkToOrigin& origin_of, const std::string& path) {
  ConfigNode node;
  node.origin = origin_of(yaml.Mark());
  switch (yaml.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      node.kind = ConfigNode::Kind::null;
      break;
    case YAML::NodeType::Scalar:
      node.kind = ConfigNode::Kind::scalar;
      node.scalar = yaml.Scalar();
      // yaml-cpp tags plain scalars "?" and quoted ones "!".
      node.quoted = yaml.Tag() == "!";
      break;
    case YAML::NodeType::Sequence: {
      node.kind = ConfigNode::Kind::sequence;
      std::size_t index = 0;
      for (const auto& item : yaml)
        node.items.push_back(convert(item, origin_of, path + "[" + std::to_string(index++) + "]"));
      break;
    }
    case YAML::NodeType::Map:
      node.kind = ConfigNode::Kind::mapping;
      for (auto it = yaml.begin(); it != yaml.end(); ++it) {
        const Origin key_origin = origin_of(it->first.Mark());
        if (!it->first.IsScalar())
          throw ConfigError(key_origin.str() + ": " + (path.empty() ? std::string{} : path + ": ") +
                            "expected a plain key, found " + (it->first.IsMap() ? "a mapping" : "a sequence"));
        const std::string key = it->first.Scalar();
        // yaml-cpp keeps both copies of a repeated key and lookups see only the first: a silent trap.
        if (const ConfigEntry* first = node.find(key))
          throw ConfigError(key_origin.str() + ": " + child_path(path, key) +
                            ": duplicate key (first written on line " + std::to_string(first->key_origin.line) + ")");
        ConfigEntry entry{key, key_origin, convert(it->second, origin_of, child_path(path, key))};
        // yaml-cpp places an empty value at the next token, possibly lines later; the key is clearer.
        if (entry.value.is_null()) entry.value.origin = key_origin;
        node.entries.push_back(std::move(entry));
      }
      break;
  }
  return node;
}

void emit(YAML::Emitter& out, const ConfigNode& node) {
  switch (node.kind) {
    case ConfigNode::Kind::null:
      out << YAML::Null;
      break;
    case ConfigNode::Kind::scalar:
      if (node.quoted) out << YAML::DoubleQuoted;
      out << node.scalar;
      break;
    case ConfigNode::Kind::sequence: {
      bool flat = true;
      for (const auto& item : node.items) flat = flat && item.is_scalar();
      if (flat) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const auto& item : node.items) emit(out, item);
      out << YAML::EndSeq;
      break;
    }
    case ConfigNode::Kind::mapping:
      if (node.entries.empty()) out << YAML::Flow;
      out << YAML::BeginMap;
      for (const auto& e : node.entries) {
        out << YAML::Key << e.key << YAML::Value;
        emit(out, e.value);
      }
      out << YAML::EndMap;
      break;
  }
}

}  // namespace

ConfigNode parse_yaml_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ConfigError(path + ": cannot read the file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open the file: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  const MarkToOrigin origin_of = [&](const YAML::Mark& m) {
    // yaml-cpp counts from 0, editors and compilers from 1; a null mark (-1) has no position.
    return m.line < 0 ? Origin{path, 1, 1, {}} : Origin{path, m.line + 1, m.column + 1, {}};
  };
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin_of(e.mark).str() + ": YAML syntax error: " + e.msg);
  }
  ConfigNode node = convert(root, origin_of, "");
  if (node.is_null()) node.origin = Origin{path, 1, 1, {}};
  return node;
}

ConfigNode parse_yaml_text(const std::string& text, const Origin& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin.str() + ": YAML syntax error: " + e.msg);
  }
  return convert(
      root, [&](const YAML::Mark&) { return origin; }, "");
}

std::string emit_yaml(const ConfigNode& node) {
  YAML::Emitter out;
  emit(out, node);
  return std::string(out.c_str()) + "\n";
}

std::string describe_found(const ConfigNode& node) {
  switch (node.kind) {
    case ConfigNode::Kind::null:
      return "nothing";
    case ConfigNode::Kind::scalar:
      return quote_found(node.scalar);
    case ConfigNode::Kind::sequence:
      return "a sequence";
    case ConfigNode::Kind::mapping:
      return "a mapping";
  }
  return "nothing";
}

}  // namespace rackscale::io
