#pragma once
// Builds a ConfigNode tree from yaml-cpp's parser events (one document), without yaml-cpp's own node
// graph, which shares aliased nodes: converting that graph recursed forever on an alias inside the
// node it names (`&a [*a]`) and copied a "billion laughs" file out to gigabytes. Here
//   - an alias is expanded into a copy of the value it names; an alias inside that value is refused
//     (a cycle), and so is an expansion past kMaxAliasCopies nodes in all;
//   - a key written twice in one mapping is refused in O(1) per key (KeyIndex);
//   - a value with an explicit tag (!foo, !!binary, !!str) is refused: rackscale reads the text of
//     every value itself, so a tag would be silently ignored.
// Every refusal is a ConfigError naming where the value was written and its key path.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include "io/config/config_node.hpp"
#include "io/config/key_index.hpp"

namespace rackscale::io {

using MarkToOrigin = std::function<Origin(const YAML::Mark&)>;

// Nodes that alias expansion may add to one document: a config has hundreds of nodes, so this only stops
// alias bombs, before they take time or memory (9 levels of 9 aliases would be 387 million nodes).
inline constexpr std::size_t kMaxAliasCopies = 100'000;

class YamlTreeBuilder final : public YAML::EventHandler {
 public:
  // `aliased`: the anchors some alias refers to (YamlAliasFinder); only their values are kept for copying.
  // `root_path`: the key path of the document's root in messages ("" for a file, the key of a --set).
  YamlTreeBuilder(MarkToOrigin origin_of, std::unordered_set<YAML::anchor_t> aliased, std::string root_path);

  // The document's root; a null node if the document was empty.
  [[nodiscard]] ConfigNode take_root();

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override;
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override;
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override;
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override;
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override;
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark& mark, const std::string& anchor_name) override;

 private:
  // A sequence or mapping whose items are still arriving.
  struct Open {
    ConfigNode node;
    YAML::anchor_t anchor = YAML::NullAnchor;
    std::string path;                             // key path, for messages
    std::size_t nodes = 1;                        // in this subtree so far, itself included
    std::optional<ConfigEntry> key;               // a mapping's key waiting for its value
    KeyIndex keys;                                // a mapping's keys so far
  };
  // The value an anchor names, kept while an alias may still copy it.
  struct Anchored {
    ConfigNode node;
    std::size_t nodes = 0;
  };

  [[nodiscard]] std::string next_path() const;
  void check_tag(const std::string& tag, const Origin& origin) const;
  void name_anchor(YAML::anchor_t anchor);
  void open(ConfigNode::Kind kind, const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor);
  void close();
  // Hands a finished value to its parent (or makes it the root).
  void add(ConfigNode node, YAML::anchor_t anchor, std::size_t nodes);
  void count_copies(std::size_t nodes, const Origin& origin, const std::string& path);

  MarkToOrigin origin_of_;
  std::unordered_set<YAML::anchor_t> aliased_;
  std::string root_path_;
  std::vector<Open> open_;
  std::optional<ConfigNode> root_;
  std::string pending_anchor_name_;
  std::unordered_map<YAML::anchor_t, std::string> anchor_names_;
  std::unordered_map<YAML::anchor_t, Anchored> anchored_;
  std::size_t copies_ = 0;
};

// Parser events that are all ignored: the base of the handlers below that want one or two of them.
class YamlEventSink : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Collects the anchors that aliases refer to (a first pass over the events), so the builder keeps only
// values that will be copied: keeping every anchored value would cost memory for nothing, quadratic in
// the nesting of anchors.
class YamlAliasFinder final : public YamlEventSink {
 public:
  [[nodiscard]] const std::unordered_set<YAML::anchor_t>& aliased() const { return aliased_; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override { aliased_.insert(anchor); }

 private:
  std::unordered_set<YAML::anchor_t> aliased_;
};

}  // namespace rackscale::io
