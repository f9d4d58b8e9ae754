// `rackscale run --trace` through the app layer under mpirun with 1 and 2 ranks, on a small version of
// the laptop example (64 H100s, TP 2 x PP 2 x DP 16, 4 micro-batches, 2 iterations; the analytical
// network, which is quicker on several ranks than the example's chunk-level one), tracing every
// device. The file is valid Chrome trace JSON whose spans agree with the run's own figures, computed
// apart from the trace: per device the compute spans add up to the stage's compute time, the compute
// track tiles the run from 0 to its end, the waits of each stage add up to its bubble, exposed
// communication and idle time, and the collective spans to the collective tallies. The file is the
// same byte for byte as a one-rank run's. SPEC and span-limit refusals name the option.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/trace_output.hpp"
#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/trace/chrome_trace.hpp"
#include "io/trace/device_selection.hpp"
#include "models/workload/training_plan.hpp"
#include "scratch_dir.hpp"

namespace {
namespace app = rackscale::app;
namespace wl = rackscale::models::workload;
using rackscale::test::ScratchDir;
using nlohmann::json;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::Scenario laptop() {
  return rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml", {"workload.parallel.global_batch=64", "network.fidelity=analytical"});
}

wl::TrainingReport traced_run(const boost::mpi::communicator& comm, const rackscale::models::Scenario& s,
                              const app::TraceOptions& trace, const std::string& method = "block") {
  app::PreparedTrace prepared = app::prepare_trace(comm, s, trace, false);
  EXPECT_EQ(prepared.problem, "");
  app::RunOptions options;
  options.partition = method;
  return app::run_training(comm, s, options, *prepared.trace);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// ts and dur are microseconds with six decimals: back to exact picoseconds.
std::uint64_t ps(const json& microseconds) { return static_cast<std::uint64_t>(std::llround(microseconds.get<double>() * 1e6)); }

struct Span {
  std::uint64_t start, end;
  std::string name, category;
  json args;
};
}  // namespace

TEST(TrainingTrace, SpansAgreeWithTheRunAndTheFileIsTheSameOnAnyRankCount) {
  const boost::mpi::communicator comm = world();
  ScratchDir dir(comm, "training-trace");
  const auto s = laptop();
  const std::string reference_path = dir / ("reference-" + std::to_string(comm.rank()) + ".json");
  const auto report = traced_run(self(), s, {reference_path, "all", app::kDefaultTraceMaxSpans});
  const std::string parallel_path = dir / "parallel.json";
  const auto parallel = traced_run(comm, s, {parallel_path, "all", app::kDefaultTraceMaxSpans}, "round_robin");
  EXPECT_EQ(parallel.iteration_times, report.iteration_times);
  if (comm.rank() != 0) return;
  const std::string text = read_file(reference_path);
  EXPECT_EQ(read_file(parallel_path), text) << "the trace differs between 1 and " << comm.size() << " ranks";
  EXPECT_FALSE(std::filesystem::exists(parallel_path + ".partial-" + std::to_string(::getpid())));

  const json trace = json::parse(text);
  ASSERT_TRUE(trace.contains("traceEvents"));
  EXPECT_EQ(trace["otherData"]["scenario"], "laptop-64");
  const std::uint32_t devices = 64, stages = 2, iterations = 2;
  std::uint64_t run_end = 0;
  for (const auto t : report.iteration_times) run_end += t;
  EXPECT_EQ(trace["otherData"]["iteration_ends_ps"].back().get<std::uint64_t>(), run_end);

  // Tracks: (pid, tid) -> spans; process names.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<Span>> tracks;
  std::map<std::uint64_t, std::string> process_names;
  for (const json& e : trace["traceEvents"]) {
    const std::string ph = e.at("ph");
    ASSERT_TRUE(ph == "X" || ph == "M") << e.dump();
    if (ph == "M") {
      if (e["name"] == "process_name") process_names[e["pid"]] = e["args"]["name"];
      continue;
    }
    ASSERT_TRUE(e.contains("name") && e.contains("cat") && e.contains("ts") && e.contains("dur") && e.contains("tid"));
    ASSERT_TRUE(e["args"].contains("iteration"));
    const std::uint64_t start = ps(e["ts"]);
    tracks[{e["pid"], e["tid"]}].push_back({start, start + ps(e["dur"]), e["name"], e["cat"], e["args"]});
  }
  ASSERT_EQ(process_names.size(), devices);
  EXPECT_EQ(process_names[1], "device 0 (node 0, stage 0, tp 0, dp 0)");
  EXPECT_EQ(process_names[64], "device 63 (node 7, stage 1, tp 1, dp 15)");

  // The bound the span limit is checked against holds.
  const wl::TrainingPlan plan = wl::build_training_plan(s.workload.training, s.cluster);
  std::vector<std::uint64_t> spans_of(devices, 0);
  for (const auto& [key, spans] : tracks) spans_of[key.first - 1] += spans.size();
  for (std::uint32_t d = 0; d < devices; ++d)
    EXPECT_LE(spans_of[d], rackscale::io::spans_per_iteration(plan.programs[plan.layout.role_of(d)]) * iterations);

  std::vector<std::uint64_t> compute(devices, 0);
  std::map<std::string, std::vector<std::uint64_t>> waits_by_stage;  // wait name -> per stage
  std::map<std::pair<std::string, std::string>, std::pair<std::uint64_t, std::uint64_t>> collectives;  // calls, time
  for (const auto& [key, spans] : tracks) {
    const auto [pid, tid] = key;
    ASSERT_GE(pid, 1u);
    ASSERT_LE(pid, devices);
    const std::uint32_t device = static_cast<std::uint32_t>(pid - 1);
    const std::uint32_t stage = device / (devices / stages);
    for (std::size_t i = 1; i < spans.size(); ++i)
      ASSERT_LE(spans[i - 1].end, spans[i].start) << "overlap on device " << device << " track " << tid;
    const bool compute_track = tid == pid * 10 + wl::kComputeStream;
    if (compute_track) {
      // Busy or waiting, from the start to the run's end without a gap.
      EXPECT_EQ(spans.front().start, 0u);
      EXPECT_EQ(spans.back().end, run_end) << "device " << device;
      for (std::size_t i = 1; i < spans.size(); ++i) ASSERT_EQ(spans[i - 1].end, spans[i].start) << "gap on device " << device;
    }
    for (const Span& span : spans) {
      if (span.category == "compute") {
        EXPECT_TRUE(compute_track);
        compute[device] += span.end - span.start;
      } else if (span.category == "wait") {
        EXPECT_TRUE(compute_track);
        auto& per_stage = waits_by_stage[span.name];
        per_stage.resize(stages, 0);
        per_stage[stage] += span.end - span.start;
      } else if (span.category == "communication") {
        auto& [calls, time] = collectives[{span.args["group"], span.args["collective"]}];
        ++calls;
        time += span.end - span.start;
      }
    }
  }
  for (std::uint32_t d = 0; d < devices; ++d) {
    const double expected = report.breakdown_by_stage[d / (devices / stages)].compute() * iterations;
    EXPECT_NEAR(static_cast<double>(compute[d]), expected, 1e-9 * expected) << "device " << d;
  }
  const double per_stage = static_cast<double>(devices / stages) * iterations;
  for (std::uint32_t st = 0; st < stages; ++st) {
    const auto& b = report.breakdown_by_stage[st];
    const auto sum = [&](const char* name) {
      const auto it = waits_by_stage.find(name);
      return it == waits_by_stage.end() ? 0.0 : static_cast<double>(it->second[st]);
    };
    EXPECT_NEAR(sum("pipeline bubble"), b.pipeline_bubble * per_stage, 1e-6 * b.total() * per_stage) << "stage " << st;
    EXPECT_NEAR(sum("exposed communication"), b.exposed_communication * per_stage, 1e-6 * b.total() * per_stage);
    EXPECT_NEAR(sum("idle"), b.idle * per_stage, 1e-6 * b.total() * per_stage) << "stage " << st;
  }
  EXPECT_GT(waits_by_stage["pipeline bubble"][0], 0u);
  ASSERT_EQ(collectives.size(), report.collectives.size());
  for (const auto& c : report.collectives) {
    const auto& [calls, time] = collectives[{wl::group_name(c.group), wl::collective_name(c.kind)}];
    EXPECT_EQ(calls, c.tally.calls) << wl::group_name(c.group) << ' ' << wl::collective_name(c.kind);
    EXPECT_EQ(time, c.tally.time) << wl::group_name(c.group) << ' ' << wl::collective_name(c.kind);
  }
}

// Which devices are traced does not depend on the ranks (the test above): one rank each is enough.
TEST(TrainingTrace, TracesTheChosenDevicesOnly) {
  const boost::mpi::communicator comm = self();
  ScratchDir dir(comm, "training-trace-chosen-" + std::to_string(world().rank()));
  const auto s = rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml",
                                              {"workload.parallel.global_batch=32", "workload.iterations=1", "network.fidelity=analytical"});
  for (const auto& [spec, pids] : std::vector<std::pair<std::string, std::set<std::uint64_t>>>{
           {"first-of-each-stage", {1, 33}}, {"stage:1,3", {4, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
                                                               49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64}},
           {"5-7, 40,6", {6, 7, 8, 41}}}) {
    const std::string path = dir / "chosen.json";
    app::PreparedTrace prepared = app::prepare_trace(comm, s, {path, spec, app::kDefaultTraceMaxSpans}, true);
    ASSERT_EQ(prepared.problem, "");
    (void)app::run_training(comm, s, {}, *prepared.trace);
    if (comm.rank() != 0) continue;
    std::set<std::uint64_t> seen;
    const json trace = json::parse(read_file(path));
    for (const json& e : trace["traceEvents"]) seen.insert(e["pid"].get<std::uint64_t>());
    EXPECT_EQ(seen, pids) << spec;
  }
}

TEST(TrainingTrace, RefusesBadSpecsAndTooManySpansBeforeSimulating) {
  const boost::mpi::communicator comm = world();
  ScratchDir dir(comm, "training-trace-refused");
  const auto s = laptop();
  const std::string path = dir / "refused.json";
  const auto problem = [&](const std::string& spec) { return app::prepare_trace(comm, s, {path, spec, 1000}, false).problem; };
  EXPECT_EQ(problem("0-x"), "--trace-devices 0-x: expected a comma-separated list of device ids (12), ranges (0-7), all, "
                            "stage:S or stage:S-T (pipeline stages) or first-of-each-stage; found '0-x'");
  EXPECT_NE(problem("").find("found ''"), std::string::npos);
  EXPECT_NE(problem("1,,2").find("found ''"), std::string::npos);
  EXPECT_NE(problem("stage:").find("found 'stage:'"), std::string::npos);
  EXPECT_EQ(problem("7-5"), "--trace-devices 7-5: expected ranges written low-high; found '7-5'");
  EXPECT_NE(problem("99999999999").find("found '99999999999'"), std::string::npos);

  const auto refusal = [&](const std::string& spec, std::uint64_t max_spans) -> std::string {
    app::PreparedTrace prepared = app::prepare_trace(comm, s, {path, spec, max_spans}, false);
    if (!prepared.problem.empty()) return prepared.problem;
    try {
      (void)app::run_training(comm, s, {}, *prepared.trace);
    } catch (const app::TraceRefused& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refusal("0-64", 1000000), "--trace-devices 0-64: expected device ids below 64 (the job's devices); found 64");
  EXPECT_EQ(refusal("stage:2", 1000000),
            "--trace-devices stage:2: expected pipeline stages below 2 (workload.parallel.pipeline); found stage 2");
  const std::string too_many = refusal("all", 1000);
  EXPECT_EQ(too_many.rfind("--trace-devices all: would record up to ", 0), 0u) << too_many;
  EXPECT_NE(too_many.find("more than the limit of 1,000 (--trace-max-spans)"), std::string::npos) << too_many;
  EXPECT_FALSE(std::filesystem::exists(path));
  // A workload other than training.
  const auto traffic = rackscale::io::load_scenario(RACKSCALE_EXAMPLE_CONFIGS "/fat-tree-128.yaml", {});
  EXPECT_EQ(app::prepare_trace(comm, traffic, {path, "all", 1000}, false).problem,
            "--trace " + path + ": timeline traces are recorded for training workloads only");
}
