// The rank map of a role-deduplicated trace set (io/chakra/rank_map.hpp; docs/traces.md, "One trace per
// role"): written as runs of ranks, read back, and every bad map refused naming the file and the line.
// Also a role trace's rank-relative attributes (pg_stride, comm_peer_pg / comm_peer_step) through a file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/chakra/chakra_file.hpp"
#include "io/chakra/rank_map.hpp"
#include "io/config/config_error.hpp"

namespace {

namespace fs = std::filesystem;
using rackscale::io::ConfigError;
using rackscale::io::read_rank_map;
using rackscale::io::write_rank_map;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("rank-map-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

fs::path map_of(const std::string& name, const std::string& text) {
  const fs::path file = scratch(name);
  std::ofstream(file, std::ios::trunc) << text;
  return file;
}

std::string error_reading(const fs::path& file, std::uint32_t ranks, std::uint32_t roles) {
  try {
    (void)read_rank_map(file, ranks, roles);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(RankMap, IsWrittenAsRunsOfRanksAndReadBack) {
  const std::vector<std::uint32_t> roles{0, 0, 0, 1, 1, 2, 0, 0};
  const fs::path file = scratch("runs.ranks");
  write_rank_map(file, roles);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\n0-2 0\n3-4 1\n5 2\n6-7 0\n"), std::string::npos) << text.str();
  EXPECT_EQ(read_rank_map(file, 8, 3), roles);
}

TEST(RankMap, AcceptsCommentsBlankLinesAndAnyLineOrder) {
  const fs::path file = map_of("comments.ranks", "# roles\n\n2-3 1   # the second stage\n  0-1\t0\n");
  EXPECT_EQ(read_rank_map(file, 4, 2), (std::vector<std::uint32_t>{0, 0, 1, 1}));
}

TEST(RankMap, RefusesABadLineNamingTheFileAndLine) {
  const fs::path file = map_of("bad-line.ranks", "0-1 0\n2-x 1\n");
  EXPECT_EQ(error_reading(file, 4, 2),
            file.string() + ":2: expected RANKS ROLE (a traced rank or a range FIRST-LAST, then the role's number), "
                            "found '2-x 1'");
  const fs::path backwards = map_of("backwards.ranks", "3-2 0\n");
  EXPECT_NE(error_reading(backwards, 4, 1).find(backwards.string() + ":1: expected RANKS ROLE"), std::string::npos);
  const fs::path no_role = map_of("no-role.ranks", "0-3\n");
  EXPECT_NE(error_reading(no_role, 4, 1).find(no_role.string() + ":1: expected RANKS ROLE"), std::string::npos);
}

TEST(RankMap, RefusesARankGivenTwiceNamingTheEarlierLine) {
  const fs::path file = map_of("twice.ranks", "0-2 0\n# next\n2-3 1\n");
  EXPECT_EQ(error_reading(file, 4, 2),
            file.string() + ":3: expected each traced rank once, found rank 2 again (line 1 gave it role 0)");
}

TEST(RankMap, RefusesARankBeyondTheTracedRanksAndARankWithoutARole) {
  const fs::path beyond = map_of("beyond.ranks", "0-4 0\n");
  EXPECT_EQ(error_reading(beyond, 4, 1),
            beyond.string() + ":1: expected traced ranks from 0 to 3 (4 traced ranks), found rank 4");
  const fs::path gap = map_of("gap.ranks", "0 0\n2-3 0\n");
  EXPECT_EQ(error_reading(gap, 4, 1),
            gap.string() + ": expected a role for every traced rank from 0 to 3, found none for rank 1");
}

TEST(RankMap, RefusesARoleWithoutATrace) {
  const fs::path file = map_of("role.ranks", "0-1 0\n2-3 2\n");
  EXPECT_EQ(error_reading(file, 4, 2),
            file.string() + ":2: role 2: expected a role with a trace (roles 0 to 1 have one), found none for role 2");
}

TEST(RankMap, RefusesAMissingFile) {
  EXPECT_NE(error_reading(scratch("none.ranks"), 4, 1).find("none.ranks: cannot open the rank map"), std::string::npos);
}

// A role trace keeps its groups and peers relative to the rank through the file.
TEST(RoleTrace, StridedGroupsAndRelativePeersSurviveAFile) {
  namespace wl = rackscale::models::workload;
  wl::TraceGraph graph;
  graph.strided_groups["data"] = {8, 32};
  graph.strided_groups["pipeline"] = {256, 4};
  graph.process_groups["data"] = {0, 8, 16};
  wl::TraceNode send;
  send.id = 1;
  send.kind = wl::TraceNodeKind::send;
  send.peer = 256;
  send.peer_group = "pipeline";
  send.peer_step = -1;
  send.comm_bytes = 64;
  graph.nodes.push_back(send);
  const fs::path file = scratch("role.0.et");
  rackscale::io::write_chakra_trace(file, graph);
  const wl::TraceGraph read = rackscale::io::read_chakra_trace(file);
  EXPECT_EQ(read.strided_groups, graph.strided_groups);
  ASSERT_EQ(read.nodes.size(), 1U);
  EXPECT_EQ(read.nodes[0].peer_group, "pipeline");
  EXPECT_EQ(read.nodes[0].peer_step, -1);
  EXPECT_EQ(read.nodes[0].peer, 256);
}

// The training layout's groups are strided: data group of device 8 + 1 (TP 8, DP 32) is 1, 9, ... and
// the pipeline neighbour before stage 0 is the last stage (interleaved, cyclic).
TEST(RoleTrace, StridedGroupsResolveForEveryRankOfTheRole) {
  namespace wl = rackscale::models::workload;
  const wl::StridedGroup data{8, 32};
  EXPECT_EQ(wl::place_in(data, 9), 1U);
  EXPECT_EQ(wl::member_at(data, 9, 0), 1U);
  EXPECT_EQ(wl::member_at(data, 9, 31), 249U);
  EXPECT_EQ(wl::member_at(data, 256 + 9, 0), 257U);
  const wl::StridedGroup pipeline{256, 4};
  EXPECT_EQ(wl::member_after(pipeline, 3, -1), 3U + 3 * 256);
  EXPECT_EQ(wl::member_after(pipeline, 3 + 3 * 256, 1), 3U);
  std::vector<std::uint32_t> members;
  for (std::uint32_t i = 0; i < 32; ++i) members.push_back(1 + 8 * i);
  EXPECT_EQ(wl::strided_group_of(members, 9, 1), data);
  EXPECT_EQ(wl::strided_group_of(members, 9, 2), std::nullopt);  // not its place
  members[5] = 40;
  EXPECT_EQ(wl::strided_group_of(members, 9, 1), std::nullopt);  // not strided
}

}  // namespace
