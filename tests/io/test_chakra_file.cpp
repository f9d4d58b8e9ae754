// Chakra execution-trace files (io/chakra): real traces from PyTorch and ASTRA-sim read as their
// published descriptions say (data/chakra/README.md), a written trace read back unchanged, and every
// malformed file refused with its file name and place.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>

#include "io/chakra/chakra_file.hpp"
#include "io/config/config_error.hpp"

namespace {

namespace fs = std::filesystem;
using rackscale::io::ConfigError;
using rackscale::io::read_chakra_trace;
using rackscale::io::write_chakra_trace;
using rackscale::models::workload::TraceCollective;
using rackscale::models::workload::TraceGraph;
using rackscale::models::workload::TraceNode;
using rackscale::models::workload::TraceNodeKind;

const fs::path kData = fs::path(RACKSCALE_SOURCE_DIR) / "data" / "chakra";

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("chakra-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string error_reading(const fs::path& file) {
  try {
    (void)read_chakra_trace(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ChakraFile, ReadsTheOneRankPyTorchTraceAsPublished) {
  const TraceGraph graph = read_chakra_trace(kData / "pytorch-1rank" / "chakra.0.et");
  EXPECT_EQ(graph.version, "");
  ASSERT_EQ(graph.nodes.size(), 3664U);
  const auto count = [&](auto predicate) { return std::count_if(graph.nodes.begin(), graph.nodes.end(), predicate); };
  EXPECT_EQ(count([](const TraceNode& n) { return n.kind == TraceNodeKind::compute; }), 3643);
  EXPECT_EQ(count([](const TraceNode& n) { return n.kind == TraceNodeKind::collective; }), 21);
  EXPECT_EQ(count([](const TraceNode& n) { return n.collective.has_value(); }), 7);
  EXPECT_EQ(count([](const TraceNode& n) { return n.kind == TraceNodeKind::compute && n.duration_micros > 0; }) +
                count([](const TraceNode& n) { return n.kind == TraceNodeKind::compute && n.duration_micros == 0; }),
            3643);
  // The first node, as protoc --decode_raw shows it: id 216, aten::flatten_dense_tensors(0), a compute
  // node of 318 us that depends on node 3 (control), not a CPU operator.
  const TraceNode& first = graph.nodes.front();
  EXPECT_EQ(first.id, 216U);
  EXPECT_EQ(first.name, "aten::flatten_dense_tensors(0)");
  EXPECT_EQ(first.duration_micros, 318U);
  EXPECT_EQ(first.control_dependencies, (std::vector<std::uint64_t>{3}));
}

TEST(ChakraFile, ThePyTorchTraceIsAGraphByItsDataDependenciesOnly) {
  using rackscale::models::workload::ControlDependencies;
  using rackscale::models::workload::TraceGraphError;
  const TraceGraph graph = read_chakra_trace(kData / "pytorch-1rank" / "chakra.0.et");
  // Its control dependencies name node 3, which the converter left out (and, further on, link CPU
  // operators and their kernels both ways): honoured, they are refused at the first such node.
  try {
    (void)graph.dependency_order(ControlDependencies::honor);
    ADD_FAILURE() << "the control dependencies were accepted";
  } catch (const TraceGraphError& e) {
    EXPECT_EQ(std::string(e.what()), "node 216 depends on node 3, which the trace does not have");
  }
  const std::vector<std::uint32_t> order = graph.dependency_order(ControlDependencies::ignore);
  ASSERT_EQ(order.size(), graph.nodes.size());
  std::unordered_map<std::uint64_t, std::size_t> position;
  for (std::size_t i = 0; i < order.size(); ++i) position[graph.nodes[order[i]].id] = i;
  for (const TraceNode& node : graph.nodes) {
    for (std::uint64_t dep : node.data_dependencies) {
      EXPECT_LT(position.at(dep), position.at(node.id)) << "node " << node.id << " before its dependency " << dep;
    }
  }
}

TEST(ChakraFile, ReadsAstraSimMicrobenchmarksAsOneCollectivePerRank) {
  struct Case {
    const char* directory;
    const char* stem;
    int ranks;
    TraceCollective kind;
  };
  for (const Case& c : {Case{"all_reduce/4npus_1MB", "all_reduce", 4, TraceCollective::all_reduce},
                        Case{"all_reduce/16npus_1MB", "all_reduce", 16, TraceCollective::all_reduce},
                        Case{"all_to_all/16npus_1MB", "all_to_all", 16, TraceCollective::all_to_all}}) {
    for (int rank = 0; rank < c.ranks; ++rank) {
      const fs::path file = kData / "astra-sim-microbenchmarks" / c.directory /
                            (std::string(c.stem) + "." + std::to_string(rank) + ".et");
      const TraceGraph graph = read_chakra_trace(file);
      EXPECT_EQ(graph.version, "0.0.4") << file;
      ASSERT_EQ(graph.nodes.size(), 1U) << file;
      const TraceNode& node = graph.nodes.front();
      EXPECT_EQ(node.kind, TraceNodeKind::collective) << file;
      ASSERT_TRUE(node.collective.has_value()) << file;
      EXPECT_EQ(*node.collective, c.kind) << file;
      EXPECT_EQ(node.comm_bytes, 1U << 20) << file;
      EXPECT_FALSE(node.cpu_op) << file;
      EXPECT_TRUE(node.process_group.empty()) << file;
    }
  }
}

TEST(ChakraFile, ReadsBackWhatItWrites) {
  TraceGraph graph;
  TraceNode compute;
  compute.id = 1;
  compute.name = "gemm";
  compute.duration_micros = 250;
  compute.duration_ps = 249'876'543;
  compute.flops = 3.5e12;
  compute.tensor_bytes = 4096;
  TraceNode collective;
  collective.id = 2;
  collective.kind = TraceNodeKind::collective;
  collective.collective = TraceCollective::reduce_scatter;
  collective.comm_bytes = 1 << 26;
  collective.process_group = "dp";
  collective.data_dependencies = {1};
  TraceNode send;
  send.id = 3;
  send.kind = TraceNodeKind::send;
  send.peer = 5;
  send.tag = 77;
  send.comm_bytes = 1024;
  send.control_dependencies = {1, 2};
  TraceNode host;
  host.id = 4;
  host.kind = TraceNodeKind::memory_load;
  host.cpu_op = true;
  host.tensor_bytes = 8;
  graph.nodes = {compute, collective, send, host};
  graph.process_groups = {{"dp", {0, 4, 8}}, {"tp", {3}}};
  const fs::path file = scratch("round-trip.et");
  write_chakra_trace(file, graph);
  const TraceGraph back = read_chakra_trace(file);
  EXPECT_EQ(back.version, "0.0.4");
  EXPECT_EQ(back.process_groups, graph.process_groups);
  ASSERT_EQ(back.nodes.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    const TraceNode& a = graph.nodes[i];
    const TraceNode& b = back.nodes[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.cpu_op, b.cpu_op);
    EXPECT_EQ(a.duration_micros, b.duration_micros);
    EXPECT_EQ(a.duration_ps, b.duration_ps);
    EXPECT_EQ(a.flops, b.flops);
    EXPECT_EQ(a.tensor_bytes, b.tensor_bytes);
    EXPECT_EQ(a.collective, b.collective);
    EXPECT_EQ(a.comm_bytes, b.comm_bytes);
    EXPECT_EQ(a.peer, b.peer);
    EXPECT_EQ(a.tag, b.tag);
    EXPECT_EQ(a.process_group, b.process_group);
    EXPECT_EQ(a.control_dependencies, b.control_dependencies);
    EXPECT_EQ(a.data_dependencies, b.data_dependencies);
  }
}

TEST(ChakraFile, RefusesTruncatedAndMalformedFilesNamingTheFileAndByte) {
  const std::string whole = read_bytes(kData / "astra-sim-microbenchmarks" / "all_reduce" / "4npus_1MB" / "all_reduce.1.et");
  // all_reduce.1.et is 83 bytes: the metadata message (1 + 7 bytes) and the node (1 + 74 bytes).
  ASSERT_EQ(whole.size(), 83U);
  const fs::path cut = scratch("cut.et");
  write_bytes(cut, whole.substr(0, whole.size() - 1));
  const std::string truncated = error_reading(cut);
  EXPECT_NE(truncated.find(cut.string() + ": message 1 at byte 8: truncated: it declares 74 bytes, 73 remain"),
            std::string::npos)
      << truncated;

  const fs::path garbage = scratch("garbage.et");
  write_bytes(garbage, std::string("\x00\x03\xff\xff\xff", 5));
  const std::string malformed = error_reading(garbage);
  EXPECT_NE(malformed.find(garbage.string() + ": message 1 at byte 1: expected a Chakra Node of 3 bytes"),
            std::string::npos)
      << malformed;

  const fs::path empty = scratch("empty.et");
  write_bytes(empty, "");
  EXPECT_NE(error_reading(empty).find("expected a Chakra trace, found an empty file"), std::string::npos);
  EXPECT_NE(error_reading(scratch("absent.et")).find("cannot open the trace"), std::string::npos);
}

TEST(ChakraFile, RefusesNodesItCannotSimulateNamingTheNode) {
  // An empty GlobalMetadata, then a node with id 5 and no type (INVALID_NODE).
  const fs::path untyped = scratch("untyped.et");
  write_bytes(untyped, std::string("\x00\x02\x08\x05", 4));
  EXPECT_NE(error_reading(untyped).find(untyped.string() + ": node 5: type: expected a node type from 1"),
            std::string::npos)
      << error_reading(untyped);

  TraceGraph graph;
  TraceNode collective;
  collective.id = 9;
  collective.kind = TraceNodeKind::collective;
  collective.collective = static_cast<TraceCollective>(12);
  graph.nodes = {collective};
  const fs::path unknown = scratch("unknown-collective.et");
  write_chakra_trace(unknown, graph);
  EXPECT_NE(error_reading(unknown).find(unknown.string() + ": node 9: attribute comm_type: expected a collective from 0 " +
                                        "(ALL_REDUCE) to 9 (BARRIER), found 12"),
            std::string::npos)
      << error_reading(unknown);

  TraceNode send;
  send.id = 11;
  send.kind = TraceNodeKind::send;
  graph.nodes = {send};
  const fs::path lonely = scratch("send-without-peer.et");
  write_chakra_trace(lonely, graph);
  EXPECT_NE(error_reading(lonely).find(lonely.string() + ": node 11: a send needs attribute comm_dst, found none"),
            std::string::npos)
      << error_reading(lonely);
}

}  // namespace
