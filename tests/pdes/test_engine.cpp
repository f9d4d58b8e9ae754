// The engine under mpirun with 1-4 ranks: ordering, determinism against a sequential reference,
// lookahead, error propagation and the corner cases (no LPs, no events, end before the first event).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/vector.hpp>
#include <gtest/gtest.h>

#include "app/phold_run.hpp"
#include "pdes/engine.hpp"
#include "pdes/error.hpp"

namespace pdes = rackscale::pdes;
using pdes::Event;
using pdes::LpId;
using pdes::SimTime;

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

// Block placement of n LPs on the world's ranks.
pdes::RankMap block_map(LpId n, int ranks) {
  std::vector<std::int32_t> owner(n);
  for (LpId i = 0; i < n; ++i) owner[i] = static_cast<std::int32_t>(static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(ranks) / n);
  return {owner, ranks};
}

// Does nothing: a run of these has no events.
class IdleLp final : public pdes::LogicalProcess {
 public:
  using LogicalProcess::LogicalProcess;
  void handle(const Event&) override {}
};

// Sends `count` events to `target` at init, `spread` of them at time `at` and the rest at `at + 1`,
// and records what it receives.
class TieLp final : public pdes::LogicalProcess {
 public:
  TieLp(LpId id, LpId target, int count, SimTime at) : LogicalProcess(id), target_(target), count_(count), at_(at) {}
  void init() override {
    for (int i = 0; i < count_; ++i) send(target_, i % 3 == 2 ? at_ + 1 : at_, 0, {static_cast<std::uint64_t>(i)});
  }
  void handle(const Event& e) override { seen.emplace_back(e.time, e.src, e.seq); }
  std::vector<std::tuple<SimTime, LpId, std::uint64_t>> seen;

 private:
  LpId target_;
  int count_;
  SimTime at_;
};

// At init sends one event to `target` after `delay`; on every event it handles, sends `zero_delay_to`
// an event with zero delay (if set) or throws (if `throw_at` matches).
class ProbeLp final : public pdes::LogicalProcess {
 public:
  ProbeLp(LpId id, LpId target, SimTime delay) : LogicalProcess(id), target_(target), delay_(delay) {}
  void init() override {
    if (target_ != pdes::kNoLp) send(target_, delay_, 1);
  }
  void handle(const Event& e) override {
    handled.push_back(now());
    if (e.kind == 1 && zero_delay_to != pdes::kNoLp) send(zero_delay_to, 0, 2);
    if (throw_at == now()) throw std::runtime_error("model says no");
  }
  LpId zero_delay_to = pdes::kNoLp;
  SimTime throw_at = pdes::kNever;
  std::vector<SimTime> handled;

 private:
  LpId target_;
  SimTime delay_;
};

rackscale::app::PholdRun small_phold() {
  rackscale::app::PholdRun run;
  run.model.lps = 64;
  run.model.remote = 0.5;
  run.model.start_events = 2;
  run.model.lookahead = 100 * pdes::kNanosecond;
  run.model.mean = 900 * pdes::kNanosecond;
  run.end = 200 * pdes::kMicrosecond;
  run.seed = 11;
  return run;
}
}  // namespace

TEST(Engine, RunWithNoLpsAndNoEvents) {
  pdes::Engine engine(world(), pdes::RankMap({}, world().size()), {});
  const pdes::EngineStats stats = engine.run(pdes::kMicrosecond);
  EXPECT_EQ(stats.events_processed, 0u);
  EXPECT_EQ(stats.windows, 0u);
  EXPECT_EQ(stats.final_time, 0u);
}

TEST(Engine, RunWhoseLpsScheduleNothing) {
  const LpId n = 8;
  pdes::Engine engine(world(), block_map(n, world().size()), {});
  for (LpId lp : engine.rank_map().lps_of(world().rank())) engine.add_lp(std::make_unique<IdleLp>(lp));
  const pdes::EngineStats stats = engine.run(pdes::kNever);
  EXPECT_EQ(stats.events_processed, 0u);
  EXPECT_EQ(stats.windows, 0u);
}

TEST(Engine, EndBeforeFirstEventHandlesNothing) {
  auto run = small_phold();
  run.end = run.model.lookahead;  // the earliest event is at lookahead + Exp(...) >= lookahead
  const auto result = rackscale::app::run_phold(world(), run);
  EXPECT_EQ(result.events, 0u);
  if (world().rank() == 0) {
    EXPECT_EQ(result.engine.total.windows, 0u);
  }
}

TEST(Engine, AddLpRejectsForeignAndDuplicateLps) {
  const int ranks = world().size();
  pdes::Engine engine(world(), block_map(static_cast<LpId>(ranks), ranks), {});
  const auto mine = static_cast<LpId>(world().rank());
  engine.add_lp(std::make_unique<IdleLp>(mine));
  EXPECT_THROW(engine.add_lp(std::make_unique<IdleLp>(mine)), std::invalid_argument);
  if (ranks > 1) {
    EXPECT_THROW(engine.add_lp(std::make_unique<IdleLp>((mine + 1) % static_cast<LpId>(ranks))),
                 std::invalid_argument);
  }
  EXPECT_THROW(engine.add_lp(std::make_unique<IdleLp>(static_cast<LpId>(ranks))), std::invalid_argument);
  (void)engine.run(0);
}

// Many sources send to one target at the same two times; the target must see them in
// (time, source, sequence) order, whichever ranks the sources are on, with every synchronizer. With
// 700 events per source one window's message to the target's rank carries thousands of events
// (hundreds of KiB: past MPI's eager limit, so the exchange's rendezvous path is exercised too); with
// 5,000 it holds more than a shared-memory ring (4,096 events), which must hand them over in parts.
class EqualTimes : public ::testing::TestWithParam<std::tuple<int, std::string>> {};
INSTANTIATE_TEST_SUITE_P(EventsPerSourceAndSync, EqualTimes,
                         ::testing::Combine(::testing::Values(7, 700, 5000),
                                            ::testing::Values("shared_memory", "dense", "sparse")));
TEST_P(EqualTimes, AreHandledInSourceAndSequenceOrder) {
  const int ranks = world().size();
  const LpId n = 13;
  const int per_source = std::get<0>(GetParam());
  const std::uint64_t expected = (n - 1) * static_cast<std::uint64_t>(per_source);
  std::vector<std::int32_t> owner(n);
  for (LpId i = 0; i < n; ++i) owner[i] = static_cast<std::int32_t>((n - 1 - i) % static_cast<LpId>(ranks));
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {.sync = std::get<1>(GetParam())});
  engine.declare_any_to_any_latency(50 * pdes::kNanosecond);
  TieLp* target = nullptr;
  for (LpId lp : engine.rank_map().lps_of(world().rank())) {
    auto p = std::make_unique<TieLp>(lp, 0, lp == 0 ? 0 : per_source, 50 * pdes::kNanosecond);
    if (lp == 0) target = p.get();
    engine.add_lp(std::move(p));
  }
  const auto stats = engine.run(pdes::kNever);
  const auto total = boost::mpi::all_reduce(world(), stats.events_processed, std::plus<std::uint64_t>());
  EXPECT_EQ(total, expected);
  if (target != nullptr) {
    ASSERT_EQ(target->seen.size(), expected);
    EXPECT_TRUE(std::is_sorted(target->seen.begin(), target->seen.end()));
    EXPECT_EQ(std::get<1>(target->seen.front()), 1u);
    EXPECT_EQ(std::get<0>(target->seen.back()), 50 * pdes::kNanosecond + 1);
  }
}

TEST(Engine, ZeroDelayToSelfIsHandledAtTheSameTime) {
  pdes::Engine engine(self(), pdes::RankMap::single_rank(1), {});
  auto lp = std::make_unique<ProbeLp>(0, 0, 5);
  lp->zero_delay_to = 0;
  ProbeLp* probe = lp.get();
  engine.add_lp(std::move(lp));
  (void)engine.run(pdes::kNever);
  EXPECT_EQ(probe->handled, (std::vector<SimTime>{5, 5}));
}

TEST(Engine, ZeroDelayToAnotherLpStopsTheRunOnEveryRank) {
  const int ranks = world().size();
  pdes::Engine engine(world(), pdes::RankMap(std::vector<std::int32_t>{0, 0}, ranks), {});
  if (world().rank() == 0) {
    auto lp = std::make_unique<ProbeLp>(0, 0, 5);
    lp->zero_delay_to = 1;
    engine.add_lp(std::move(lp));
    engine.add_lp(std::make_unique<IdleLp>(1));
  }
  try {
    (void)engine.run(pdes::kNever);
    ADD_FAILURE() << "expected SimulationError";
  } catch (const pdes::SimulationError& e) {
    EXPECT_EQ(e.failing_rank(), 0);
    EXPECT_NE(std::string(e.what()).find("LP 0 sent an event to LP 1 with zero delay"), std::string::npos) << e.what();
  }
}

TEST(Engine, ModelExceptionStopsTheRunOnEveryRankWithItsMessage) {
  const int ranks = world().size();
  const int last = ranks - 1;
  pdes::Engine engine(world(), pdes::RankMap(std::vector<std::int32_t>{last}, ranks), {});
  if (world().rank() == last) {
    auto lp = std::make_unique<ProbeLp>(0, 0, 7 * pdes::kNanosecond);
    lp->throw_at = 7 * pdes::kNanosecond;
    engine.add_lp(std::move(lp));
  }
  try {
    (void)engine.run(pdes::kNever);
    ADD_FAILURE() << "expected SimulationError";
  } catch (const pdes::SimulationError& e) {
    EXPECT_EQ(e.failing_rank(), last);
    const std::string message = e.what();
    EXPECT_NE(message.find("model says no"), std::string::npos) << message;
    EXPECT_NE(message.find("at 7 ns"), std::string::npos) << message;
  }
}

// LP 0 on rank 0 sends to LP 1 on the last rank after 50 ns over a 100 ns link.
TEST(Engine, EventAcrossRanksBelowTheLookaheadStopsTheRun) {
  const int ranks = world().size();
  pdes::Engine engine(world(), pdes::RankMap(std::vector<std::int32_t>{0, ranks - 1}, ranks), {});
  engine.add_link({0, 1, 100 * pdes::kNanosecond});
  ProbeLp* receiver = nullptr;
  for (LpId lp : engine.rank_map().lps_of(world().rank())) {
    auto p = std::make_unique<ProbeLp>(lp, lp == 0 ? 1 : pdes::kNoLp, 50 * pdes::kNanosecond);
    if (lp == 1) receiver = p.get();
    engine.add_lp(std::move(p));
  }
  if (ranks == 1) {
    // Both LPs on one rank: no link crosses ranks, so the short delay is legal and the event arrives.
    (void)engine.run(pdes::kNever);
    ASSERT_NE(receiver, nullptr);
    EXPECT_EQ(receiver->handled, (std::vector<SimTime>{50 * pdes::kNanosecond}));
    return;
  }
  try {
    (void)engine.run(pdes::kNever);
    ADD_FAILURE() << "expected SimulationError";
  } catch (const pdes::SimulationError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.failing_rank(), 0);
    EXPECT_NE(message.find("causality violation"), std::string::npos) << message;
    EXPECT_NE(message.find("LP 0 (rank 0) sent an event to LP 1 (rank " + std::to_string(ranks - 1) + ")"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("delay of 50 ns"), std::string::npos) << message;
    EXPECT_NE(message.find("lookahead of 100 ns"), std::string::npos) << message;
  }
}

// Links 0-1 (300 ns), 1-2 (200 ns), 2-3 (100 ns); the lookahead is the smallest latency of a link
// whose ends are on different ranks, worked out here by hand for each rank count.
TEST(Engine, LookaheadIsTheSmallestCrossRankLinkLatency) {
  const int ranks = world().size();
  if (ranks > 4) GTEST_SKIP() << "worked out for up to 4 ranks";
  const std::vector<std::vector<std::int32_t>> owners{{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 0, 1, 2}, {0, 1, 2, 3}};
  const std::vector<SimTime> expected{pdes::kNever, 200 * pdes::kNanosecond, 100 * pdes::kNanosecond,
                                      100 * pdes::kNanosecond};
  const auto r = static_cast<std::size_t>(ranks - 1);
  pdes::Engine engine(world(), pdes::RankMap(owners[r], ranks), {});
  const std::vector<pdes::Link> links{{0, 1, 300 * pdes::kNanosecond}, {1, 2, 200 * pdes::kNanosecond},
                                      {2, 3, 100 * pdes::kNanosecond}};
  for (const auto& link : links)
    if (engine.is_local(link.a) || engine.is_local(link.b)) engine.add_link(link);
  for (LpId lp : engine.rank_map().lps_of(world().rank())) engine.add_lp(std::make_unique<IdleLp>(lp));
  const auto stats = engine.run(pdes::kNever);
  EXPECT_EQ(engine.lookahead(), expected[r]);
  EXPECT_EQ(stats.lookahead, expected[r]);
}

namespace {
// Runs PHOLD on this rank alone, as the sequential reference.
rackscale::app::PholdResult sequential(const rackscale::app::PholdRun& run) {
  auto reference = run;
  reference.sync = "sequential";
  reference.placement = "block";
  return rackscale::app::run_phold(self(), reference, true);
}

void expect_same_as_sequential(const rackscale::app::PholdRun& run, const rackscale::app::PholdResult& reference) {
  const auto result = rackscale::app::run_phold(world(), run, true);
  const std::string label = "queue " + run.queue + ", sync " + run.sync + ", placement " + run.placement;
  EXPECT_EQ(result.checksum, reference.checksum) << label;
  EXPECT_EQ(result.events, reference.events) << label;
  if (world().rank() == 0) {
    EXPECT_EQ(result.events_per_lp, reference.events_per_lp) << label;
    const auto& t = result.engine.total;
    EXPECT_EQ(t.remote_sent, t.remote_received) << label;
    if (world().size() == 1) {
      EXPECT_EQ(t.remote_sent, 0u) << label;
    }
  }
}
}  // namespace

TEST(Engine, PholdIsIdenticalToSequentialForEveryQueueSyncAndPlacement) {
  const auto base = small_phold();
  const auto reference = sequential(base);
  ASSERT_GT(reference.events, 10'000u);
  for (const std::string& queue : pdes::event_queue_names())
    for (const std::string sync : {"shared_memory", "dense", "sparse"})
      for (const std::string placement : {"block", "round_robin"}) {
        auto run = base;
        run.queue = queue;
        run.sync = sync;
        run.placement = placement;
        expect_same_as_sequential(run, reference);
      }
}

// With mean == lookahead every increment is exactly the lookahead, so events pile up on the same
// picosecond from many sources: the strictest test of the tie-breaking order across ranks.
TEST(Engine, PholdWithAllEventsOnTheSameTicksIsIdenticalToSequential) {
  auto base = small_phold();
  base.model.mean = base.model.lookahead;
  base.model.start_events = 3;
  const auto reference = sequential(base);
  for (const std::string sync : {"shared_memory", "dense", "sparse"})
    for (const std::string placement : {"block", "round_robin"}) {
      auto run = base;
      run.sync = sync;
      run.placement = placement;
      expect_same_as_sequential(run, reference);
    }
}

// Every LP on the last rank: the other ranks own nothing but still take part in every window.
TEST(Engine, RanksWithoutLpsTakePart) {
  const int ranks = world().size();
  const auto base = small_phold();
  const auto reference = sequential(base);
  std::vector<std::int32_t> owner(base.model.lps, ranks - 1);
  pdes::Engine engine(world(), pdes::RankMap(owner, ranks), {.seed = base.seed});
  engine.declare_any_to_any_latency(base.model.lookahead);
  for (LpId lp : engine.rank_map().lps_of(world().rank()))
    engine.add_lp(std::make_unique<rackscale::models::phold::PholdLp>(lp, base.model));
  const auto stats = engine.run(base.end);
  EXPECT_EQ(stats.events_processed, world().rank() == ranks - 1 ? reference.events : 0u);
}
