// Progress reports under mpirun with 1-4 ranks: every rank agrees on the windows after which rank 0
// reports (the dense, shared-memory and sparse exchanges carry rank 0's wish), the summed figures match a closed form,
// the model's work gauge is summed over ranks, and showing progress changes no result.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/phold_run.hpp"
#include "pdes/engine.hpp"
#include "pdes/progress.hpp"

namespace pdes = rackscale::pdes;
using pdes::LpId;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }

constexpr SimTime kPeriod = 10 * pdes::kNanosecond;

// Handles an event to itself every kPeriod, at kPeriod, 2 kPeriod, ... (before the end).
class TickLp final : public pdes::LogicalProcess {
 public:
  using LogicalProcess::LogicalProcess;
  void init() override { send(id(), kPeriod, 0); }
  void handle(const pdes::Event&) override {
    ++ticks;
    send(id(), kPeriod, 0);
  }
  std::uint64_t ticks = 0;
};

// Always due; records what it is told.
class RecordingMonitor final : public pdes::ProgressMonitor {
 public:
  bool due(double wall_seconds) override {
    ++asked;
    EXPECT_GE(wall_seconds, 0.0);
    return true;
  }
  void report(const pdes::ProgressFigures& figures) override { reports.push_back(figures); }
  void finish() override { ++finished; }
  int asked = 0;
  int finished = 0;
  std::vector<pdes::ProgressFigures> reports;
};

pdes::RankMap block_map(LpId n, int ranks) {
  std::vector<std::int32_t> owner(n);
  for (LpId i = 0; i < n; ++i)
    owner[i] = static_cast<std::int32_t>(static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(ranks) / n);
  return {owner, ranks};
}

struct TickRun {
  pdes::EngineStats stats;
  std::shared_ptr<RecordingMonitor> monitor = std::make_shared<RecordingMonitor>();
};

constexpr LpId kLps = 12;
constexpr SimTime kEnd = 20 * pdes::kMicrosecond;  // 1,999 ticks per LP: at 10 ns, ..., 19,990 ns
constexpr std::uint64_t kTicksPerLp = kEnd / kPeriod - 1;

TickRun run_ticks(const std::string& sync) {
  TickRun run;
  pdes::EngineOptions options;
  options.sync = sync;
  options.progress = run.monitor;
  pdes::Engine engine(world(), block_map(kLps, world().size()), options);
  engine.declare_any_to_any_latency(35 * pdes::kNanosecond);  // windows of 35 ns with several ranks
  std::vector<const TickLp*> mine;
  for (LpId lp : engine.rank_map().lps_of(world().rank())) {
    auto tick = std::make_unique<TickLp>(lp);
    mine.push_back(tick.get());
    engine.add_lp(std::move(tick));
  }
  engine.set_work_gauge([&mine] {
    pdes::WorkDone work;
    for (const TickLp* lp : mine) work += {lp->ticks, kTicksPerLp};
    return work;
  });
  run.stats = engine.run(kEnd);
  return run;
}

void expect_reports_match_closed_form(const TickRun& run) {
  const auto& reports = run.monitor->reports;
  if (world().rank() != 0) {
    // Only rank 0 is asked and told.
    EXPECT_EQ(run.monitor->asked, 0);
    EXPECT_TRUE(reports.empty());
    EXPECT_EQ(run.monitor->finished, 0);
    return;
  }
  EXPECT_EQ(run.monitor->finished, 1);
  ASSERT_FALSE(reports.empty());
  const bool one_rank = world().size() == 1;
  if (one_rank) {
    // The single window is polled every 1,024 events, plus the report after LP init.
    EXPECT_EQ(reports.size(), 1 + kLps * kTicksPerLp / 1024);
  } else {
    // One report after every window that leaves events to handle: the first exchange and every
    // window but the last.
    EXPECT_EQ(reports.size(), run.stats.windows);
  }
  std::uint64_t previous_events = 0;
  for (const auto& r : reports) {
    EXPECT_EQ(r.end, kEnd);
    EXPECT_EQ(r.simulated % kPeriod, 0u);
    const std::uint64_t before = r.simulated / kPeriod - 1;  // ticks per LP strictly before `simulated`
    if (one_rank) {
      // Polled in the middle of a time step: every LP's earlier ticks, and some of this step's.
      EXPECT_GE(r.events, kLps * before);
      EXPECT_LE(r.events, kLps * (before + 1));
    } else {
      // At a window's end, `simulated` is the next event time: exactly the earlier ticks are done.
      EXPECT_EQ(r.events, kLps * before);
    }
    EXPECT_GE(r.events, previous_events);
    previous_events = r.events;
    EXPECT_EQ(r.work.done, r.events);  // the gauge counts ticks, summed over ranks
    EXPECT_EQ(r.work.total, kLps * kTicksPerLp);
    EXPECT_DOUBLE_EQ(r.fraction_done(), static_cast<double>(r.events) / static_cast<double>(kLps * kTicksPerLp));
  }
}
}  // namespace

TEST(Progress, FractionDonePrefersTheGaugeThenSimulatedTime) {
  pdes::ProgressFigures f;
  f.simulated = 250;
  f.end = 1000;
  EXPECT_DOUBLE_EQ(f.fraction_done(), 0.25);
  f.work = {3, 4};
  EXPECT_DOUBLE_EQ(f.fraction_done(), 0.75);
  f.work = {};
  f.end = pdes::kNever;
  EXPECT_LT(f.fraction_done(), 0.0);
}

TEST(Progress, DenseReportsAgreeWithTheClosedForm) {
  expect_reports_match_closed_form(run_ticks(world().size() == 1 ? "auto" : "dense"));
}

TEST(Progress, SharedMemoryReportsAgreeWithTheClosedForm) {
  if (world().size() == 1) GTEST_SKIP() << "one rank runs sequentially";
  expect_reports_match_closed_form(run_ticks("shared_memory"));
}

TEST(Progress, SparseReportsAgreeWithTheClosedForm) {
  if (world().size() == 1) GTEST_SKIP() << "one rank runs sequentially";
  expect_reports_match_closed_form(run_ticks("sparse"));
}

TEST(Progress, NoProgressIsNeverDue) {
  pdes::NoProgress none;
  EXPECT_FALSE(none.due(1e9));
}

TEST(Progress, ShowingProgressChangesNoResult) {
  rackscale::app::PholdRun run;
  run.model.lps = 64;
  run.model.remote = 0.3;
  run.model.lookahead = 100 * pdes::kNanosecond;
  run.model.mean = 900 * pdes::kNanosecond;
  run.model.start_events = 2;
  run.end = 200 * pdes::kMicrosecond;
  const auto quiet = rackscale::app::run_phold(world(), run);
  auto monitor = std::make_shared<RecordingMonitor>();
  run.progress = monitor;
  const auto watched = rackscale::app::run_phold(world(), run);
  EXPECT_EQ(watched.events, quiet.events);
  EXPECT_EQ(watched.checksum, quiet.checksum);
  if (world().rank() == 0) {
    ASSERT_FALSE(monitor->reports.empty());
    EXPECT_LE(monitor->reports.back().events, watched.events);
  }
}
