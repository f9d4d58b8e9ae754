#include "io/config/yaml_tree_builder.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "io/config/yaml_reader.hpp"

namespace rackscale::io {

namespace {

// yaml-cpp's tags: "?" on a plain value, "!" on a quoted one (or one written with the non-specific tag
// "!", which means "a string" too); anything else was written by the user.
bool is_untagged(const std::string& tag) { return tag == "?" || tag == "!"; }

// "tag:yaml.org,2002:binary" is written "!!binary".
std::string written_tag(const std::string& tag) {
  constexpr std::string_view kCore = "tag:yaml.org,2002:";
  return tag.starts_with(kCore) ? "!!" + tag.substr(kCore.size()) : tag;
}

}  // namespace

YamlTreeBuilder::YamlTreeBuilder(MarkToOrigin origin_of, std::unordered_set<YAML::anchor_t> aliased,
                                 std::string root_path)
    : origin_of_(std::move(origin_of)), aliased_(std::move(aliased)), root_path_(std::move(root_path)) {}

ConfigNode YamlTreeBuilder::take_root() { return root_ ? std::move(*root_) : ConfigNode{}; }

std::string YamlTreeBuilder::next_path() const {
  if (open_.empty()) return root_path_;
  const Open& parent = open_.back();
  if (parent.node.is_sequence()) return parent.path + "[" + std::to_string(parent.node.items.size()) + "]";
  // A mapping's key is reported at the mapping's path, its value at the key's.
  return parent.key ? join_path(parent.path, parent.key->key) : parent.path;
}

void YamlTreeBuilder::check_tag(const std::string& tag, const Origin& origin) const {
  // The path is only made for the message: a million-key mapping has no time for a million paths.
  if (!is_untagged(tag))
    fail(origin, next_path(), "expected a value without a YAML tag, found the tag '" + written_tag(tag) + "'");
}

void YamlTreeBuilder::OnAnchor(const YAML::Mark&, const std::string& anchor_name) {
  pending_anchor_name_ = anchor_name;
}

void YamlTreeBuilder::name_anchor(YAML::anchor_t anchor) {
  // yaml-cpp announces an anchor's name just before the node that carries it.
  if (anchor != YAML::NullAnchor) anchor_names_[anchor] = std::exchange(pending_anchor_name_, {});
}

void YamlTreeBuilder::OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) {
  name_anchor(anchor);
  ConfigNode node;
  node.origin = origin_of_(mark);
  add(std::move(node), anchor, 1);
}

void YamlTreeBuilder::OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                               const std::string& value) {
  name_anchor(anchor);
  ConfigNode node;
  node.origin = origin_of_(mark);
  check_tag(tag, node.origin);
  node.kind = ConfigNode::Kind::scalar;
  node.scalar = value;
  node.quoted = tag == "!";
  add(std::move(node), anchor, 1);
}

void YamlTreeBuilder::OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) {
  const Origin origin = origin_of_(mark);
  const std::string path = next_path();
  const std::string name = "*" + anchor_names_[anchor];
  if (std::any_of(open_.begin(), open_.end(), [&](const Open& o) { return o.anchor == anchor; }))
    fail(origin, path, "alias " + name + " is inside the value it names (a cycle); expected an alias to a finished value");
  const auto it = anchored_.find(anchor);
  if (it == anchored_.end()) fail(origin, path, "alias " + name + " names no value");  // yaml-cpp checks this first
  count_copies(it->second.nodes, origin, path);
  ConfigNode copy = it->second.node;
  // The copy is reported where the alias was written; its inner values where they were written.
  copy.origin = origin;
  add(std::move(copy), YAML::NullAnchor, it->second.nodes);
}

void YamlTreeBuilder::OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                                      YAML::EmitterStyle::value) {
  open(ConfigNode::Kind::sequence, mark, tag, anchor);
}

void YamlTreeBuilder::OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                                 YAML::EmitterStyle::value) {
  open(ConfigNode::Kind::mapping, mark, tag, anchor);
}

void YamlTreeBuilder::open(ConfigNode::Kind kind, const YAML::Mark& mark, const std::string& tag,
                           YAML::anchor_t anchor) {
  name_anchor(anchor);
  Open o;
  o.anchor = anchor;
  o.path = next_path();
  o.node.kind = kind;
  o.node.origin = origin_of_(mark);
  check_tag(tag, o.node.origin);
  open_.push_back(std::move(o));
}

void YamlTreeBuilder::close() {
  Open o = std::move(open_.back());
  open_.pop_back();
  add(std::move(o.node), o.anchor, o.nodes);
}

void YamlTreeBuilder::count_copies(std::size_t nodes, const Origin& origin, const std::string& path) {
  copies_ += nodes;
  if (copies_ > kMaxAliasCopies)
    fail(origin, path,
         fmt::format("expected aliases to copy at most {} values in all, found more (nested aliases multiply)",
                     kMaxAliasCopies));
}

void YamlTreeBuilder::add(ConfigNode node, YAML::anchor_t anchor, std::size_t nodes) {
  if (anchor != YAML::NullAnchor && aliased_.contains(anchor)) {
    count_copies(nodes, node.origin, next_path());
    anchored_[anchor] = Anchored{node, nodes};
  }
  if (open_.empty()) {
    root_ = std::move(node);
    return;
  }
  Open& parent = open_.back();
  parent.nodes += nodes;
  if (parent.node.is_sequence()) {
    parent.node.items.push_back(std::move(node));
    return;
  }
  if (!parent.key) {
    if (!node.is_scalar()) fail(node.origin, parent.path, "expected a plain key, found " + describe_found(node));
    // yaml-cpp keeps both copies of a repeated key and lookups see only the first: a silent trap.
    if (const auto first = parent.keys.find_or_add(node.scalar, parent.node.entries)) {
      const int line = parent.node.entries[*first].key_origin.line;
      fail(node.origin, join_path(parent.path, node.scalar),
           line > 0 ? "duplicate key (first written on line " + std::to_string(line) + ")" : std::string("duplicate key"));
    }
    parent.key = ConfigEntry{std::move(node.scalar), std::move(node.origin), {}};
    return;
  }
  ConfigEntry entry = std::move(*parent.key);
  parent.key.reset();
  entry.value = std::move(node);
  // yaml-cpp places an empty value at the next token, possibly lines later; the key is clearer.
  if (entry.value.is_null()) entry.value.origin = entry.key_origin;
  parent.node.entries.push_back(std::move(entry));
}

}  // namespace rackscale::io
