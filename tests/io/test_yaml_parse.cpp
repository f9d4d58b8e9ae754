// Parsing YAML into the config tree (config_parse.cpp, yaml_tree_builder.cpp): aliases, tags, documents,
// NUL bytes and large mappings, in files and in --set values. The bad config files for these are in
// tests/io/bad_configs; here are the cases a file cannot show (a --set value, a time, a copy's origin).
#include <ctime>
#include <string>

#include <gtest/gtest.h>

#include "config_test_support.hpp"
#include "io/config/config_node.hpp"
#include "io/config/overrides.hpp"

namespace rackscale::io::test {
namespace {

// The message of parsing the file at `path`, after its name; "" if it parses.
std::string parse_error_at(const std::string& path) {
  try {
    (void)parse_yaml_file(path);
  } catch (const ConfigError& e) {
    return std::string(e.what()).substr(path.size() + 1);
  }
  return "";
}
std::string parse_error(const std::string& text) { return parse_error_at(write_temp(text, "parse")); }

std::string override_error(const std::string& assignment) {
  ConfigNode root = parse_yaml_text("{}", Origin{});
  try {
    apply_override(root, assignment, [](const std::string&) { return false; });
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

double cpu_seconds(std::clock_t since) { return static_cast<double>(std::clock() - since) / CLOCKS_PER_SEC; }

// The large-mapping bound: about 1 s of CPU in a Release build, 5 in the asan preset's Debug build with
// AddressSanitizer; a check that scans the earlier keys takes minutes in either.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kLargeMappingCpuSeconds = 25.0;
#else
constexpr double kLargeMappingCpuSeconds = 5.0;
#endif

TEST(YamlParse, AnAliasIsACopyReportedWhereTheAliasIs) {
  const ConfigNode root = parse_yaml_file(write_temp("nic: &n {bandwidth: 50GB/s, latency: 1us}\nother: *n\n"));
  const ConfigEntry* other = root.find("other");
  ASSERT_NE(other, nullptr);
  ASSERT_TRUE(other->value.is_mapping());
  ASSERT_NE(other->value.find("latency"), nullptr);
  EXPECT_EQ(other->value.find("latency")->value.scalar, "1us");
  EXPECT_EQ(other->value.origin.line, 2);
  EXPECT_EQ(other->value.origin.column, 8);
  // Inside the copy, values are where they were written.
  EXPECT_EQ(other->value.find("bandwidth")->value.origin.line, 1);
}

TEST(YamlParse, AnAliasMayBeAKey) {
  const ConfigNode root = parse_yaml_file(write_temp("a: &k name\n*k : x\n"));
  ASSERT_NE(root.find("name"), nullptr);
  EXPECT_EQ(root.find("name")->value.scalar, "x");
}

TEST(YamlParse, AnAliasCycleInASetIsRefusedWithItsPath) {
  // This overflowed the stack (SIGSEGV).
  EXPECT_EQ(override_error("cluster.scale_out.fat_tree.oversubscription=&a [*a]"),
            "--set cluster.scale_out.fat_tree.oversubscription=&a [*a]: "
            "cluster.scale_out.fat_tree.oversubscription[0]: alias *a is inside the value it names (a cycle); "
            "expected an alias to a finished value");
  EXPECT_EQ(override_error("a={x: &m {y: *m}}"),
            "--set a={x: &m {y: *m}}: a.x.y: alias *m is inside the value it names (a cycle); expected an alias to a "
            "finished value");
}

TEST(YamlParse, AnAliasBombStopsAtOnce) {
  std::string text = "[&l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]";
  for (int level = 1; level < 10; ++level) {
    text += ", &l" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i) text += (i > 0 ? ", *l" : "*l") + std::to_string(level - 1);
    text += "]";
  }
  text += "]";
  const std::clock_t start = std::clock();
  EXPECT_EQ(override_error("laughs=" + text).substr(0, 32), "--set laughs=[&l0 [lol, lol, lol");
  EXPECT_NE(override_error("laughs=" + text).find(": laughs[4]: expected aliases to copy at most 100000 values"),
            std::string::npos);
  EXPECT_LT(cpu_seconds(start), kLargeMappingCpuSeconds);
}

TEST(YamlParse, AnchorsWithoutAliasesCopyNothing) {
  // Only anchors that an alias names are kept: 150,000 values under nested anchors are not counted
  // against the alias limit (nor held twice).
  std::string list = "[";
  for (int i = 0; i < 150'000; ++i) list += (i > 0 ? ", " : "") + std::to_string(i);
  list += "]";
  EXPECT_EQ(parse_error("big: &outer {inner: &inner " + list + "}\nsmall: &s 1\nagain: *s\n"), "");
}

TEST(YamlParse, TagsAreRefusedInSetValues) {
  EXPECT_EQ(override_error("cluster.nodes=!!int 4"),
            "--set cluster.nodes=!!int 4: cluster.nodes: expected a value without a YAML tag, found the tag '!!int'");
  EXPECT_EQ(override_error("cluster.nic=!nic {preset: x}"),
            "--set cluster.nic=!nic {preset: x}: cluster.nic: expected a value without a YAML tag, found the tag "
            "'!nic'");
  // The non-specific tag "!" only says "a string", as quotes do.
  EXPECT_EQ(override_error("name=! 4"), "");
}

TEST(YamlParse, OneDocumentOnly) {
  EXPECT_EQ(parse_error("---\na: 1\n...\n"), "");
  EXPECT_EQ(parse_error("a: 1\n---\n"), "2:1: expected one YAML document, found a second one (after '---' or '...')");
  EXPECT_EQ(parse_error("a: 1\n...\nb: 2\n"),
            "3:1: expected one YAML document, found a second one (after '---' or '...')");
  EXPECT_EQ(override_error("cluster.nodes=4\n---\n5"),
            "--set cluster.nodes=4\n---\n5: expected one YAML document, found a second one (after '---' or '...')");
}

TEST(YamlParse, NulBytesAreRefused) {
  EXPECT_EQ(parse_error(std::string("a: 1\nb: \"x\0y\"\n", 14)), "2:6: expected text, found a NUL byte");
  // The command line cannot carry one; the parser of --set values refuses it all the same.
  EXPECT_THROW((void)parse_yaml_text(std::string("x\0y", 3), Origin{}), ConfigError);
}

TEST(YamlParse, AKeyMustBePlain) {
  EXPECT_EQ(parse_error("a:\n  [x]: 1\n"), "2:3: a: expected a plain key, found a sequence");
  EXPECT_EQ(parse_error("? {x: 1}\n: 2\n"), "1:3: expected a plain key, found a mapping");
}

TEST(YamlParse, DuplicateKeysInALargeMappingAreFoundInLinearTime) {
  // The duplicate check scanned every earlier key: 64,000 keys took 13 s and 250,000 would take 200 s.
  constexpr int kKeys = 250'000;
  std::string text;
  for (int i = 0; i < kKeys; ++i) text += "key" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  text += "key0: again\n";
  const std::string path = write_temp(text, "large");
  const std::clock_t start = std::clock();
  EXPECT_EQ(parse_error_at(path), std::to_string(kKeys + 1) + ":1: key0: duplicate key (first written on line 1)");
  EXPECT_LT(cpu_seconds(start), kLargeMappingCpuSeconds);
}

}  // namespace
}  // namespace rackscale::io::test
