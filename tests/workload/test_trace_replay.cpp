// The trace workload (docs/traces.md): Chakra traces replayed on the event engine. Real inputs first
// (data/chakra): the one-rank PyTorch trace's critical path against its dependency chains computed here
// from the file, and ASTRA-sim's microbenchmarks against the collective workload on the same cluster.
// Then traces written here: point-to-point pairs, process groups, and the traces a replay refuses,
// each with the file and node in its message. Every run is compared with a run on this rank alone.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/collective_run.hpp"
#include "app/trace_run.hpp"
#include "io/chakra/chakra_file.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/workload/trace_graph.hpp"
#include "pdes/error.hpp"
#include "scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace wl = rackscale::models::workload;
using rackscale::app::run_trace;
using rackscale::app::TraceReplayRefused;
using wl::TraceCollective;
using wl::TraceGraph;
using wl::TraceNode;
using wl::TraceNodeKind;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

const std::string kSource = RACKSCALE_SOURCE_DIR;
constexpr std::uint64_t kPsPerUs = 1'000'000;

// The longest chain of data dependencies in `graph`, each node weighted by `weight` (µs): computed here
// from the file, independently of the replay.
std::uint64_t longest_chain(const TraceGraph& graph, const std::function<std::uint64_t(const TraceNode&)>& weight) {
  std::map<std::uint64_t, const TraceNode*> by_id;
  for (const TraceNode& n : graph.nodes) by_id[n.id] = &n;
  std::map<std::uint64_t, std::uint64_t> memo;
  std::function<std::uint64_t(const TraceNode&)> chain = [&](const TraceNode& n) -> std::uint64_t {
    if (const auto it = memo.find(n.id); it != memo.end()) return it->second;
    std::uint64_t before = 0;
    for (const std::uint64_t d : n.data_dependencies) before = std::max(before, chain(*by_id.at(d)));
    return memo[n.id] = before + weight(n);
  };
  std::uint64_t longest = 0;
  for (const TraceNode& n : graph.nodes) longest = std::max(longest, chain(n));
  return longest;
}

void expect_same(const wl::TraceReport& a, const wl::TraceReport& b) {
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.critical_path, b.critical_path);
  EXPECT_EQ(a.critical_ops, b.critical_ops);
  EXPECT_EQ(a.critical_rank, b.critical_rank);
  ASSERT_EQ(a.per_rank.size(), b.per_rank.size());
  for (std::size_t i = 0; i < a.per_rank.size(); ++i) {
    EXPECT_EQ(a.per_rank[i].stats.end, b.per_rank[i].stats.end) << i;
    EXPECT_EQ(a.per_rank[i].stats.compute, b.per_rank[i].stats.compute) << i;
    EXPECT_EQ(a.per_rank[i].stats.communication, b.per_rank[i].stats.communication) << i;
  }
}

// ---- the real one-rank PyTorch trace -------------------------------------------------------------------

// A kernel's measured time counts; a CPU operator's only when `cpu` (cpu_ops: serialize); a collective
// of one member exchanges nothing and takes no time, whatever its kernel measured.
std::uint64_t replayed_micros(const TraceNode& n, bool cpu) {
  if (n.cpu_op) return cpu ? n.duration_micros : 0;
  return n.kind == TraceNodeKind::compute ? n.duration_micros : 0;
}

TEST(TraceReplay, PyTorchTraceCriticalPathIsItsLongestChainOfMeasuredKernels) {
  const TraceGraph graph = rackscale::io::read_chakra_trace(kSource + "/data/chakra/pytorch-1rank/chakra.0.et");
  const auto scenario = rackscale::io::load_scenario(kSource + "/configs/traces/pytorch-1rank.yaml", {});
  const wl::TraceReport report = run_trace(world(), scenario, {});
  const std::uint64_t chain = longest_chain(graph, [](const TraceNode& n) { return replayed_micros(n, false); });
  EXPECT_EQ(report.critical_path, chain * kPsPerUs);
  ASSERT_EQ(report.per_rank.size(), 1u);
  EXPECT_EQ(report.ops, graph.nodes.size());
  // The compute units run one kernel at a time: the makespan is at least the kernels' sum.
  std::uint64_t kernels = 0;
  for (const TraceNode& n : graph.nodes)
    if (!n.cpu_op && n.kind == TraceNodeKind::compute) kernels += n.duration_micros;
  EXPECT_EQ(report.per_rank[0].stats.compute, kernels * kPsPerUs);
  EXPECT_GE(report.makespan, kernels * kPsPerUs);
  EXPECT_GE(report.makespan, report.critical_path);
  expect_same(report, run_trace(self(), scenario, {}));
}

TEST(TraceReplay, PyTorchTraceWithSerializedCpuOpsCountsThemOnTheChain) {
  const TraceGraph graph = rackscale::io::read_chakra_trace(kSource + "/data/chakra/pytorch-1rank/chakra.0.et");
  const auto scenario =
      rackscale::io::load_scenario(kSource + "/configs/traces/pytorch-1rank.yaml", {"workload.cpu_ops=serialize"});
  const wl::TraceReport report = run_trace(world(), scenario, {});
  const std::uint64_t chain = longest_chain(graph, [](const TraceNode& n) { return replayed_micros(n, true); });
  EXPECT_EQ(report.critical_path, chain * kPsPerUs);
  EXPECT_GT(report.per_rank[0].stats.host, 0u);
}

TEST(TraceReplay, PyTorchTraceNeedsItsControlDependenciesIgnored) {
  const auto scenario =
      rackscale::io::load_scenario(kSource + "/configs/traces/pytorch-1rank.yaml", {"workload.control_dependencies=honor"});
  try {
    (void)run_trace(world(), scenario, {});
    FAIL() << "replayed a trace whose control dependencies name nodes it does not have";
  } catch (const TraceReplayRefused& e) {
    EXPECT_NE(std::string(e.what()).find("chakra.0.et: node 216 depends on node 3, which the trace does not have"),
              std::string::npos)
        << e.what();
  }
}

// ---- ASTRA-sim's microbenchmarks against the collective workload -----------------------------------------

// The collective workload's time for one size on the first `devices` devices of the 2-node H100 example.
std::uint64_t collective_time(const std::string& op, std::uint32_t devices) {
  const auto scenario = rackscale::io::load_scenario(
      kSource + "/configs/examples/nccl-allreduce-2node-h100.yaml",
      {"workload.op=" + op, "workload.min_bytes=1MiB", "workload.max_bytes=1MiB", "workload.devices=" + std::to_string(devices)});
  const auto report = rackscale::app::run_collective(world(), scenario, {});
  return report.results.at(0).time;
}

wl::TraceReport replay(const std::string& files, const std::vector<std::string>& more = {}) {
  std::vector<std::string> overrides{"workload.files=" + files};
  overrides.insert(overrides.end(), more.begin(), more.end());
  const auto scenario = rackscale::io::load_scenario(kSource + "/configs/traces/astra-sim-all-reduce-16.yaml", overrides);
  const wl::TraceReport report = run_trace(world(), scenario, {});
  expect_same(report, run_trace(self(), scenario, {}));
  return report;
}

TEST(TraceReplay, AstraSimAllReduceOn16RanksTakesTheCollectiveWorkloadsTime) {
  const std::string dir = kSource + "/data/chakra/astra-sim-microbenchmarks/all_reduce/16npus_1MB";
  const wl::TraceReport report = replay(dir + "/all_reduce.%d.et");
  EXPECT_EQ(report.ranks, 16u);
  EXPECT_GT(report.makespan, 0u);
  EXPECT_EQ(report.makespan, collective_time("all_reduce", 16));
  EXPECT_EQ(report.critical_path, report.makespan);  // one collective, nothing else
}

TEST(TraceReplay, AstraSimAllReduceOn4RanksTakesTheCollectiveWorkloadsTime) {
  const std::string dir = kSource + "/data/chakra/astra-sim-microbenchmarks/all_reduce/4npus_1MB";
  const wl::TraceReport report = replay(dir + "/all_reduce.%d.et", {"workload.mapping=[0, 1, 2, 3]"});
  EXPECT_EQ(report.ranks, 4u);
  EXPECT_EQ(report.makespan, collective_time("all_reduce", 4));
}

TEST(TraceReplay, AstraSimAllToAllOn16RanksTakesTheCollectiveWorkloadsTime) {
  const std::string dir = kSource + "/data/chakra/astra-sim-microbenchmarks/all_to_all/16npus_1MB";
  const wl::TraceReport report = replay(dir + "/all_to_all.%d.et");
  EXPECT_EQ(report.makespan, collective_time("all_to_all", 16));
}

// ---- traces written here --------------------------------------------------------------------------------

TraceNode compute(std::uint64_t id, std::uint64_t micros, std::vector<std::uint64_t> deps = {}) {
  TraceNode n;
  n.id = id;
  n.name = "kernel";
  n.duration_micros = micros;
  n.data_dependencies = std::move(deps);
  return n;
}

TraceNode collective(std::uint64_t id, std::uint64_t bytes, std::vector<std::uint64_t> deps = {},
                     std::string group = "") {
  TraceNode n;
  n.id = id;
  n.kind = TraceNodeKind::collective;
  n.name = "all_reduce";
  n.collective = TraceCollective::all_reduce;
  n.comm_bytes = bytes;
  n.process_group = std::move(group);
  n.data_dependencies = std::move(deps);
  return n;
}

TraceNode point_to_point(std::uint64_t id, bool send, std::int64_t peer, std::int64_t tag, std::vector<std::uint64_t> deps = {}) {
  TraceNode n;
  n.id = id;
  n.kind = send ? TraceNodeKind::send : TraceNodeKind::recv;
  n.name = send ? "send" : "recv";
  n.peer = peer;
  n.tag = tag;
  n.comm_bytes = 1 << 20;
  n.data_dependencies = std::move(deps);
  return n;
}

// A 4-device HGX-like node whose traces are `traces` (rank r's written as job.r.et in `dir`).
rackscale::models::Scenario four_devices(const rackscale::test::ScratchDir& dir, const std::vector<TraceGraph>& traces,
                                         const std::string& name) {
  const fs::path folder = fs::path(dir.path()) / name;
  if (world().rank() == 0) {
    fs::create_directories(folder);
    for (std::size_t r = 0; r < traces.size(); ++r)
      rackscale::io::write_chakra_trace(folder / ("job." + std::to_string(r) + ".et"), traces[r]);
    std::ofstream(folder / "job.yaml") << R"(name: four
cluster:
  nodes: 1
  devices_per_node: 4
  nodes_per_rack: 1
  nics_per_node: 0
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_up: {kind: nvswitch, domain_devices: 4, bandwidth: 450GB/s, latency: 500ns, switch: nvswitch-gen3}
  scale_out: {topology: none}
network: {fidelity: analytical}
workload: {type: trace, files: "job.%d.et"}
)";
  }
  world().barrier();
  return rackscale::io::load_scenario((folder / "job.yaml").string(), {});
}

std::string refusal(const rackscale::models::Scenario& scenario) {
  try {
    (void)run_trace(world(), scenario, {});
  } catch (const TraceReplayRefused& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TraceReplay, SendsMeetTheirReceivesByTagAndOrderTheWorkAfterThem) {
  const rackscale::test::ScratchDir dir(world(), "trace-p2p");
  // Rank 0 computes 10 µs and sends to rank 1, which waits for it before computing 5 µs; ranks 2 and 3
  // exchange two messages with different tags, received in the opposite order.
  std::vector<TraceGraph> traces(4);
  traces[0].nodes = {compute(1, 10), point_to_point(2, true, 1, 7, {1})};
  traces[1].nodes = {point_to_point(1, false, 0, 7), compute(2, 5, {1})};
  traces[2].nodes = {point_to_point(1, true, 3, 1), point_to_point(2, true, 3, 2)};
  traces[3].nodes = {point_to_point(1, false, 2, 2), point_to_point(2, false, 2, 1)};
  const auto scenario = four_devices(dir, traces, "p2p");
  const wl::TraceReport report = run_trace(world(), scenario, {});
  ASSERT_EQ(report.per_rank.size(), 4u);
  const auto& one = report.per_rank[1].stats;
  EXPECT_GT(one.end, 15 * kPsPerUs);  // after rank 0's kernel, the transfer, then its own kernel
  EXPECT_EQ(one.compute, 5 * kPsPerUs);
  EXPECT_EQ(one.critical_path, one.end);  // its receive waited from time 0, then its kernel ran
  EXPECT_EQ(report.per_rank[0].stats.sends, 1u);
  EXPECT_EQ(report.per_rank[3].stats.receives, 2u);
  expect_same(report, run_trace(self(), scenario, {}));
}

// More transfers in flight on one device than PointToPoint scans in place (64): rank 0 posts 200 sends at
// once, whose data reaches rank 1 before its receives start (they wait for a 50 us kernel) and which it
// then receives in the opposite order; rank 3 posts 100 receives at once, in the opposite order of rank
// 2's sends. Every transfer must meet its own and every op finish, on any rank count.
TEST(TraceReplay, HundredsOfTransfersInFlightMeetTheirOwn) {
  const rackscale::test::ScratchDir dir(world(), "trace-many-p2p");
  std::vector<TraceGraph> traces(4);
  traces[1].nodes = {compute(1, 50)};
  for (std::int64_t t = 0; t < 200; ++t) {
    const auto id = static_cast<std::uint64_t>(t) + 2;
    traces[0].nodes.push_back(point_to_point(id, true, 1, t));
    traces[1].nodes.push_back(point_to_point(id, false, 0, 199 - t, {1}));
  }
  for (std::int64_t t = 0; t < 100; ++t) {
    const auto id = static_cast<std::uint64_t>(t) + 1;
    traces[2].nodes.push_back(point_to_point(id, true, 3, t));
    traces[3].nodes.push_back(point_to_point(id, false, 2, 99 - t));
  }
  const auto scenario = four_devices(dir, traces, "many");
  const wl::TraceReport report = run_trace(world(), scenario, {});
  ASSERT_EQ(report.per_rank.size(), 4u);
  for (const auto& f : report.per_rank) EXPECT_TRUE(f.stats.finished) << f.rank;
  EXPECT_EQ(report.per_rank[0].stats.sends, 200u);
  EXPECT_EQ(report.per_rank[1].stats.receives, 200u);
  EXPECT_EQ(report.per_rank[2].stats.sends, 100u);
  EXPECT_EQ(report.per_rank[3].stats.receives, 100u);
  EXPECT_EQ(report.per_rank[0].stats.bytes_sent, 200u << 20);
  EXPECT_GE(report.per_rank[1].stats.end, 50 * kPsPerUs);  // its receives waited for its kernel
  expect_same(report, run_trace(self(), scenario, {}));
}

TEST(TraceReplay, ProcessGroupsComeFromTheMetadataAndKeepTheirOwnOrder) {
  const rackscale::test::ScratchDir dir(world(), "trace-groups");
  // Two groups {0, 1} and {2, 3} each run two all-reduces; everyone then all-reduces over all ranks.
  std::vector<TraceGraph> traces(4);
  for (std::uint32_t r = 0; r < 4; ++r) {
    const std::string group = r < 2 ? "low" : "high";
    traces[r].process_groups = {{"low", {0, 1}}, {"high", {2, 3}}};
    traces[r].nodes = {compute(1, r + 1), collective(2, 1 << 20, {1}, group), collective(3, 1 << 22, {2}, group),
                       collective(4, 1 << 10, {3})};
  }
  const auto scenario = four_devices(dir, traces, "groups");
  const wl::TraceReport report = run_trace(world(), scenario, {});
  for (const auto& f : report.per_rank) EXPECT_EQ(f.stats.collectives, 3u) << f.rank;
  // The last all-reduce ends everywhere at once.
  for (const auto& f : report.per_rank) EXPECT_EQ(f.stats.end, report.makespan) << f.rank;
  expect_same(report, run_trace(self(), scenario, {}));

  traces[1].process_groups.erase("low");
  EXPECT_NE(refusal(four_devices(dir, traces, "no-group"))
                .find("job.1.et: node 2: pg_name 'low': expected its ranks in the trace's GlobalMetadata"),
            std::string::npos);
}

TEST(TraceReplay, ARankThatNeverFinishesStopsTheRunNamingTheFirstAndItsNode) {
  const rackscale::test::ScratchDir dir(world(), "trace-stuck");
  // Ranks 0 to 2 call an all-reduce over every rank; rank 3's trace has no nodes, so it never calls it.
  std::vector<TraceGraph> traces(4);
  for (std::uint32_t r = 0; r < 3; ++r) traces[r].nodes = {compute(1, r + 1), collective(9, 1 << 20, {1})};
  const auto scenario = four_devices(dir, traces, "stuck");
  const auto message = [&](const boost::mpi::communicator& comm) -> std::string {
    try {
      (void)run_trace(comm, scenario, {});
    } catch (const rackscale::pdes::SimulationError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string stuck = message(world());
  EXPECT_NE(stuck.find("3 of 4 traced ranks did not finish; the first, rank 0, waits at node 9 of"), std::string::npos)
      << stuck;
  EXPECT_EQ(stuck, message(self()));
}

TEST(TraceReplay, RefusesAnUnmatchedSendNamingItsFileAndNode) {
  const rackscale::test::ScratchDir dir(world(), "trace-unmatched");
  std::vector<TraceGraph> traces(4);
  traces[0].nodes = {point_to_point(5, true, 1, 7)};
  traces[1].nodes = {point_to_point(6, false, 0, 8)};
  const std::string message = refusal(four_devices(dir, traces, "unmatched"));
  EXPECT_NE(message.find("job.0.et: node 5: send to rank 1 with tag 7: expected a receive from rank 0 with tag 7 in"),
            std::string::npos)
      << message;
}

TEST(TraceReplay, RefusesACycleAndACollectiveWithNoKindNamingTheNode) {
  const rackscale::test::ScratchDir dir(world(), "trace-bad");
  std::vector<TraceGraph> traces(4);
  traces[2].nodes = {compute(1, 1, {2}), compute(2, 1, {1})};
  std::string message = refusal(four_devices(dir, traces, "cycle"));
  EXPECT_NE(message.find("cycle/job.2.et: dependency cycle: 1 -> 2 -> 1"), std::string::npos) << message;

  traces[2].nodes = {collective(3, 64)};
  traces[2].nodes[0].collective.reset();
  message = refusal(four_devices(dir, traces, "unknown-collective"));
  EXPECT_NE(message.find("job.2.et: node 3: collective 'all_reduce': expected attribute comm_type"), std::string::npos)
      << message;
}

TEST(TraceReplay, RefusesATruncatedTraceNamingTheFileAndByte) {
  const rackscale::test::ScratchDir dir(world(), "trace-truncated");
  std::vector<TraceGraph> traces(4);
  traces[3].nodes = {compute(1, 1), compute(2, 1, {1})};
  const auto scenario = four_devices(dir, traces, "truncated");
  const fs::path file = fs::path(dir.path()) / "truncated" / "job.3.et";
  if (world().rank() == 0) fs::resize_file(file, fs::file_size(file) - 3);
  world().barrier();
  const std::string message = refusal(scenario);
  EXPECT_NE(message.find(file.string() + ": message 2 at byte"), std::string::npos) << message;
  EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST(TraceReplay, RefusesATraceCountThatIsNotTheDevices) {
  const std::string dir = kSource + "/data/chakra/astra-sim-microbenchmarks/all_reduce/4npus_1MB";
  try {
    (void)rackscale::io::load_scenario(kSource + "/configs/traces/astra-sim-all-reduce-16.yaml",
                                       {"workload.files=" + dir + "/all_reduce.%d.et"});
    FAIL() << "4 traces loaded for 16 devices";
  } catch (const rackscale::io::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("workload.files: expected 16 traces (the cluster's devices)"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("found 4 (" + dir + "/all_reduce.4.et is missing)"), std::string::npos) << e.what();
  }
}


}  // namespace
