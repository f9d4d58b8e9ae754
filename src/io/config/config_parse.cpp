// parse_yaml_file and parse_yaml_text (config_node.hpp): the checks on the whole text, then one YAML
// document through yaml-cpp's event parser into YamlTreeBuilder.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "io/config/config_error.hpp"
#include "io/config/config_node.hpp"
#include "io/config/yaml_reader.hpp"
#include "io/config/yaml_tree_builder.hpp"

namespace rackscale::io {

namespace {

YAML::Mark mark_at(int line, int column) {
  YAML::Mark mark;
  mark.line = line;
  mark.column = column;
  return mark;
}

// yaml-cpp reads a string up to a NUL byte in some places and past it in others (a value was cut short
// silently); a config is text, so a NUL byte is refused where it is.
void check_no_nul(const std::string& text, const MarkToOrigin& origin_of) {
  const auto nul = text.find('\0');
  if (nul == std::string::npos) return;
  const auto line_start = text.rfind('\n', nul);
  const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
  const auto column = nul - (line_start == std::string::npos ? 0 : line_start + 1);
  fail(origin_of(mark_at(static_cast<int>(line), static_cast<int>(column))), "", "expected text, found a NUL byte");
}

// The anchors that aliases refer to. An alias is written with '*', so text without one has none and
// needs no first pass.
std::unordered_set<YAML::anchor_t> aliased_anchors(const std::string& text) {
  if (text.find('*') == std::string::npos) return {};
  std::istringstream in(text);
  YAML::Parser parser(in);
  YamlAliasFinder finder;
  parser.HandleNextDocument(finder);
  return finder.aliased();
}

// Refuses a second document, which yaml-cpp would parse and rackscale would ignore.
class SecondDocument final : public YamlEventSink {
 public:
  explicit SecondDocument(const MarkToOrigin& origin_of) : origin_of_(origin_of) {}
  void OnDocumentStart(const YAML::Mark& mark) override {
    fail(origin_of_(mark), "", "expected one YAML document, found a second one (after '---' or '...')");
  }

 private:
  const MarkToOrigin& origin_of_;
};

ConfigNode parse_document(const std::string& text, const MarkToOrigin& origin_of, const Origin& fallback,
                          const std::string& root_path) {
  check_no_nul(text, origin_of);
  try {
    YamlTreeBuilder builder(origin_of, aliased_anchors(text), root_path);
    std::istringstream in(text);
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder)) {
      ConfigNode empty;
      empty.origin = fallback;
      return empty;
    }
    SecondDocument second(origin_of);
    parser.HandleNextDocument(second);
    return builder.take_root();
  } catch (const YAML::DeepRecursion& e) {
    throw ConfigError(origin_of(e.mark).str() +
                      fmt::format(": YAML syntax error: expected values nested at most {} levels deep, found deeper",
                                  e.depth() - 1));
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin_of(e.mark).str() + ": YAML syntax error: " + e.msg);
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
  ConfigNode node = parse_document(text.str(), origin_of, Origin{path, 1, 1, {}}, "");
  if (node.is_null()) node.origin = Origin{path, 1, 1, {}};
  return node;
}

ConfigNode parse_yaml_text(const std::string& text, const Origin& origin, const std::string& path) {
  return parse_document(
      text, [&](const YAML::Mark&) { return origin; }, origin, path);
}

}  // namespace rackscale::io
