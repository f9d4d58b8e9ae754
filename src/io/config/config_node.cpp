#include "io/config/config_node.hpp"

#include <yaml-cpp/yaml.h>

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
