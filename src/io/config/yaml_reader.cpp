#include "io/config/yaml_reader.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "io/config/config_error.hpp"
#include "io/config/double_from_chars.hpp"
#include "io/config/did_you_mean.hpp"
#include "io/config/units.hpp"

namespace rackscale::io {

std::string join_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

void fail(const Origin& origin, const std::string& path, const std::string& detail) {
  throw ConfigError(origin.str() + ": " + (path.empty() ? std::string{} : path + ": ") + detail);
}

namespace {

const std::string& scalar_text(const ConfigNode& node, const std::string& path, std::string_view expected) {
  if (!node.is_scalar()) fail(node, path, "expected " + std::string(expected) + ", found " + describe_found(node));
  return node.scalar;
}

// Applies a units.hpp parser, turning its UnitError into a located ConfigError.
template <class Parse>
auto with_unit(const ConfigNode& node, const std::string& path, std::string_view expected, Parse parse) {
  const std::string& text = scalar_text(node, path, expected);
  try {
    return parse(text);
  } catch (const UnitError& e) {
    fail(node, path, e.what());
  }
}

bool is_decimal_integer(const std::string& text) {
  if (text.empty()) return false;
  const std::size_t start = text[0] == '-' ? 1 : 0;
  if (start == text.size()) return false;
  for (std::size_t i = start; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return true;
}

}  // namespace

std::string read_string(const ConfigNode& node, const std::string& path) { return scalar_text(node, path, "a string"); }

std::uint64_t read_integer(const ConfigNode& node, const std::string& path, std::uint64_t min, std::uint64_t max) {
  const std::string& text = scalar_text(node, path, "an integer");
  const auto found = quote_found(text);
  if (!is_decimal_integer(text)) fail(node, path, "expected an integer, found " + found);
  if (text[0] == '-') {
    // Every integer in a config is a count, an index or a seed: negative is never meaningful.
    fail(node, path, fmt::format("expected an integer >= {}, found {}", min, found));
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || value > max)
    fail(node, path, fmt::format("expected an integer <= {}, found {}", max, found));
  if (value < min) fail(node, path, fmt::format("expected an integer >= {}, found {}", min, found));
  return value;
}

std::uint32_t read_u32(const ConfigNode& node, const std::string& path, std::uint32_t min) {
  return static_cast<std::uint32_t>(read_integer(node, path, min, UINT32_MAX));
}

std::uint32_t read_count(const ConfigNode& node, const std::string& path) { return read_u32(node, path, 1); }

double read_fraction(const ConfigNode& node, const std::string& path) {
  const double f = read_number(node, path, 0.0, true);
  if (f > 1.0) fail(node, path, "expected a fraction in (0, 1], found " + node.scalar);
  return f;
}

double read_number(const ConfigNode& node, const std::string& path, double min, bool exclusive) {
  const std::string& text = scalar_text(node, path, "a number");
  double value = 0;
  const auto [end, ec] = double_from_chars(text.data(), text.data() + text.size(), value);
  // from_chars also takes "inf" and "nan"; neither is a usable figure.
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value))
    fail(node, path, "expected a number, found " + quote_found(text));
  if (exclusive ? !(value > min) : !(value >= min))
    fail(node, path, fmt::format("expected a number {} {}, found {}", exclusive ? ">" : ">=", min, quote_found(text)));
  return value;
}

double read_bandwidth(const ConfigNode& node, const std::string& path) {
  const double value = with_unit(node, path, "a bandwidth", parse_bandwidth);
  if (value <= 0) fail(node, path, "expected a bandwidth > 0, found " + quote_found(node.scalar));
  return value;
}

std::uint64_t read_size(const ConfigNode& node, const std::string& path, std::uint64_t min) {
  const std::uint64_t value = with_unit(node, path, "a size", parse_bytes);
  if (value < min)
    fail(node, path, fmt::format("expected a size of at least {} bytes, found {}", min, quote_found(node.scalar)));
  return value;
}

pdes::SimTime read_duration(const ConfigNode& node, const std::string& path) {
  return with_unit(node, path, "a duration", parse_duration);
}

std::uint64_t read_whole_number(const ConfigNode& node, const std::string& path) {
  const double v = read_number(node, path, 0.0);
  if (v != std::floor(v) || v >= 1.8e19)
    fail(node, path, "expected a whole number below 1.8e19, found " + quote_found(node.scalar));
  return static_cast<std::uint64_t>(v);
}

double read_power(const ConfigNode& node, const std::string& path) {
  return with_unit(node, path, "a power", parse_power);
}

double read_flop_rate_or_zero(const ConfigNode& node, const std::string& path) {
  return with_unit(node, path, "a FLOP rate", parse_flop_rate);
}

double read_flop_rate(const ConfigNode& node, const std::string& path) {
  const double value = read_flop_rate_or_zero(node, path);
  if (value <= 0) fail(node, path, "expected a FLOP rate > 0, found " + quote_found(node.scalar));
  return value;
}

std::size_t read_choice(const ConfigNode& node, const std::string& path, const std::vector<std::string>& names) {
  const std::string expected = "one of " + join(names);
  const std::string& text = scalar_text(node, path, expected);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == text) return i;
  std::string message = "expected " + expected + ", found " + quote_found(text);
  if (const auto guess = closest_match(text, names)) message += "; did you mean '" + *guess + "'?";
  fail(node, path, message);
}

namespace {
// Keys that earlier versions read and that now live elsewhere: the error says where, since a
// did-you-mean guess from the old place cannot find them.
std::optional<std::string_view> moved_to(std::string_view key_path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kMoved{{
      {"workload.training_tokens", "tco.token_budget"},
      // Framework behaviour is the software stack's (models/workload/stack_spec.hpp).
      {"workload.parallel.bucket_size", "workload.stack.grad_bucket_size"},
      {"workload.parallel.overlap_grad_reduce", "workload.stack.overlap_grad_reduce"},
      {"workload.parallel.overlap_param_gather", "workload.stack.zero3_prefetch"},
  }};
  for (const auto& [from, to] : kMoved)
    if (from == key_path) return to;
  return std::nullopt;
}
}  // namespace

MapReader::MapReader(const ConfigNode& node, std::string path, std::vector<std::string> allowed,
                     KeyLocations* locations)
    : node_(node), path_(std::move(path)) {
  if (!node.is_mapping()) fail(node, path_, "expected a mapping, found " + describe_found(node));
  for (const auto& entry : node.entries) {
    if (locations != nullptr) (*locations)[path_of(entry.key)] = entry.key_origin.str();
    bool known = false;
    for (const auto& a : allowed) known = known || a == entry.key;
    if (known) continue;
    const auto guess = closest_match(entry.key, allowed);
    const auto moved = moved_to(path_of(entry.key));
    const std::string hint = moved   ? "it moved to '" + std::string(*moved) + "'"
                             : guess ? "did you mean '" + *guess + "'?"
                                     : "expected one of " + join(allowed);
    // An override is named as the user typed it; a key in a file is pointed at like a compiler would.
    if (entry.key_origin.from_override())
      throw ConfigError(entry.key_origin.str() + ": unknown key '" + entry.key + "' " +
                        (path_.empty() ? std::string("at the top level") : "in " + path_) + "; " + hint);
    fail(entry.key_origin, path_of(entry.key), "unknown key; " + hint);
  }
}

const ConfigNode* MapReader::find(std::string_view key) const {
  const ConfigEntry* e = node_.find(key);
  return e == nullptr ? nullptr : &e->value;
}

const ConfigNode& MapReader::require(std::string_view key) const {
  const ConfigNode* n = find(key);
  if (n == nullptr) fail(node_, path_, "missing required key '" + std::string(key) + "'");
  return *n;
}

void MapReader::forbid(std::string_view key, const std::string& reason) const {
  if (const ConfigEntry* e = node_.find(key)) fail(e->key_origin, path_of(key), reason);
}

}  // namespace rackscale::io
