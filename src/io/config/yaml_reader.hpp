#pragma once
// Typed, located reads from a ConfigNode tree: every failure is one ConfigError line naming where the
// value was written, its key path, what was expected and what was found.
//
//   MapReader cluster(node, "cluster", {"nodes", "devices_per_node", ...}, &locations);
//   const auto nodes = cluster.required("nodes", read_count);   // integer >= 1
//
// A MapReader checks its keys on construction, so a misspelt key is reported (with a suggestion from
// the keys valid at that place) before any value is used.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/config/config_node.hpp"
#include "pdes/time.hpp"

namespace rackscale::io {

// Key path -> "file:line:column" (or "--set ...") of the key, as in models::Scenario::key_locations.
using KeyLocations = std::map<std::string, std::string>;

// "cluster" + "nodes" -> "cluster.nodes"; "" + "cluster" -> "cluster".
[[nodiscard]] std::string join_path(const std::string& parent, std::string_view key);

// Throws ConfigError("<origin>: <path>: <detail>"); the path part is left out when empty.
[[noreturn]] void fail(const Origin& origin, const std::string& path, const std::string& detail);
[[noreturn]] inline void fail(const ConfigNode& node, const std::string& path, const std::string& detail) {
  fail(node.origin, path, detail);
}

// Scalar reads. Each checks the node's kind and the written text strictly.
[[nodiscard]] std::string read_string(const ConfigNode& node, const std::string& path);
// A decimal integer in [min, max]: "expected an integer, found 'eight'", "expected an integer >= 1, found 0".
[[nodiscard]] std::uint64_t read_integer(const ConfigNode& node, const std::string& path, std::uint64_t min = 0,
                                         std::uint64_t max = UINT64_MAX);
[[nodiscard]] std::uint32_t read_u32(const ConfigNode& node, const std::string& path, std::uint32_t min = 0);
// An integer >= 1.
[[nodiscard]] std::uint32_t read_count(const ConfigNode& node, const std::string& path);
// A finite number >= min (or > min when `exclusive`).
[[nodiscard]] double read_number(const ConfigNode& node, const std::string& path, double min, bool exclusive = false);
// A count that may be written with an exponent (token_budget: 15.6e12), but must be whole and >= 0.
[[nodiscard]] std::uint64_t read_whole_number(const ConfigNode& node, const std::string& path);
// A fraction in (0, 1]: "expected a fraction in (0, 1], found 1.5".
[[nodiscard]] double read_fraction(const ConfigNode& node, const std::string& path);
// Quantities with units (io/config/units.hpp). Bandwidths and FLOP rates must be > 0, durations and
// powers >= 0.
[[nodiscard]] double read_bandwidth(const ConfigNode& node, const std::string& path);
[[nodiscard]] std::uint64_t read_size(const ConfigNode& node, const std::string& path, std::uint64_t min = 0);
[[nodiscard]] pdes::SimTime read_duration(const ConfigNode& node, const std::string& path);
[[nodiscard]] double read_power(const ConfigNode& node, const std::string& path);
[[nodiscard]] double read_flop_rate(const ConfigNode& node, const std::string& path);
// A FLOP rate that may be 0, meaning "not supported" (an accelerator without FP8).
[[nodiscard]] double read_flop_rate_or_zero(const ConfigNode& node, const std::string& path);

// One of `choices` (exact spelling): "expected one of a, b, found 'x'; did you mean 'a'?".
template <class E>
using EnumChoices = std::vector<std::pair<std::string, E>>;
[[nodiscard]] std::size_t read_choice(const ConfigNode& node, const std::string& path,
                                      const std::vector<std::string>& names);
template <class E>
[[nodiscard]] E read_enum(const ConfigNode& node, const std::string& path, const EnumChoices<E>& choices) {
  std::vector<std::string> names;
  for (const auto& c : choices) names.push_back(c.first);
  return choices[read_choice(node, path, names)].second;
}

// The reader of one mapping.
class MapReader {
 public:
  // Throws unless `node` is a mapping whose keys are all in `allowed`; records every key's location.
  MapReader(const ConfigNode& node, std::string path, std::vector<std::string> allowed, KeyLocations* locations);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const ConfigNode& node() const { return node_; }
  [[nodiscard]] std::string path_of(std::string_view key) const { return join_path(path_, key); }
  [[nodiscard]] const ConfigNode* find(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
  // The value of `key`; if absent, "<this mapping's origin>: <path>: missing required key 'key'".
  [[nodiscard]] const ConfigNode& require(std::string_view key) const;
  // If `key` is present, "<its origin>: <path.key>: <reason>", e.g. "only allowed with topology: dragonfly".
  void forbid(std::string_view key, const std::string& reason) const;

  // read(node, path) on the value of a required key.
  template <class Read>
  [[nodiscard]] auto required(std::string_view key, Read read) const {
    return read(require(key), path_of(key));
  }
  // read(node, path) on the value of `key`, or `fallback` when it is absent.
  template <class T, class Read>
  [[nodiscard]] T optional(std::string_view key, T fallback, Read read) const {
    if (const ConfigNode* n = find(key)) return read(*n, path_of(key));
    return fallback;
  }

 private:
  const ConfigNode& node_;
  std::string path_;
};

}  // namespace rackscale::io
