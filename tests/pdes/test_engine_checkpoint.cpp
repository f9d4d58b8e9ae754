// The engine's checkpoints under mpirun with 1 and 2 ranks: a run stopped after some windows and
// restored into a fresh engine continues where it stopped (not from the start) and ends as the run
// that was never stopped; LP types that cannot be saved are reported; a state that does not fit is
// refused on every rank.
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "models/phold/phold.hpp"
#include "pdes/engine.hpp"

namespace pdes = rackscale::pdes;
namespace phold = rackscale::models::phold;

namespace {
constexpr pdes::SimTime kEnd = 2'000'000'000;  // 2 ms

pdes::RankMap block_map(pdes::LpId n, int ranks) {
  std::vector<std::int32_t> owner(n);
  for (pdes::LpId i = 0; i < n; ++i) owner[i] = static_cast<std::int32_t>(std::uint64_t{i} * std::uint64_t(ranks) / n);
  return {owner, ranks};
}

struct Outcome {
  std::uint64_t handled = 0;  // events the LPs handled, summed over ranks
  std::uint64_t digest = 0;   // a sum of the LPs' digests over ranks
  pdes::EngineStats stats;
};

// A PHOLD engine of 256 LPs on the world's ranks.
std::unique_ptr<pdes::Engine> phold_engine(const phold::Params& params) {
  boost::mpi::communicator world;
  auto engine = std::make_unique<pdes::Engine>(world, block_map(params.lps, world.size()), pdes::EngineOptions{});
  engine->declare_any_to_any_latency(params.lookahead);
  for (pdes::LpId lp : engine->rank_map().lps_of(world.rank())) engine->add_lp(std::make_unique<phold::PholdLp>(lp, params));
  return engine;
}

Outcome outcome_of(pdes::Engine& engine, const pdes::EngineStats& stats) {
  boost::mpi::communicator world;
  Outcome out{0, 0, stats};
  for (const auto& lp : engine.local_lps()) {
    const auto& p = static_cast<const phold::PholdLp&>(*lp);
    out.handled += p.events_handled();
    out.digest += phold::mix64(p.id() + p.digest());
  }
  out.handled = boost::mpi::all_reduce(world, out.handled, std::plus<std::uint64_t>());
  out.digest = boost::mpi::all_reduce(world, out.digest, std::plus<std::uint64_t>());
  return out;
}

phold::Params params() {
  phold::Params p;
  p.lps = 256;
  return p;
}
}  // namespace

TEST(EngineCheckpoint, RestoredRunContinuesWhereItStoppedAndEndsAsTheUninterruptedOne) {
  auto reference_engine = phold_engine(params());
  const pdes::EngineStats reference_stats = reference_engine->run(kEnd);
  const Outcome reference = outcome_of(*reference_engine, reference_stats);
  ASSERT_FALSE(reference_stats.stopped);

  for (const std::uint64_t stop : {1u, 4u, 30u}) {
    auto first = phold_engine(params());
    std::string saved;
    pdes::CheckpointHooks hooks;
    hooks.stop_after_windows = stop;
    hooks.write = [&saved](const std::string& state, pdes::SimTime, std::uint64_t) { saved = state; };
    first->set_checkpoint_hooks(hooks);
    const pdes::EngineStats first_stats = first->run(kEnd);
    const Outcome before = outcome_of(*first, first_stats);
    ASSERT_TRUE(first_stats.stopped) << "stop at " << stop;
    EXPECT_EQ(first_stats.windows, stop);
    EXPECT_EQ(first_stats.checkpoints, 1u);
    ASSERT_FALSE(saved.empty());
    ASSERT_GT(before.handled, 0u);
    ASSERT_LT(before.handled, reference.handled);

    auto second = phold_engine(params());
    second->restore_from(saved);
    // Restored LPs start from their saved histories: had init() run again, or the events been lost,
    // the counts and digests would differ.
    EXPECT_EQ(outcome_of(*second, {}).handled, before.handled);
    const pdes::EngineStats second_stats = second->run(kEnd);
    const Outcome after = outcome_of(*second, second_stats);
    EXPECT_FALSE(second_stats.stopped);
    EXPECT_EQ(after.handled, reference.handled) << "stop at " << stop;
    EXPECT_EQ(after.digest, reference.digest) << "stop at " << stop;
    EXPECT_EQ(second_stats.events_processed, reference_stats.events_processed);
    EXPECT_EQ(second_stats.final_time, reference_stats.final_time);
  }
}

namespace {
class PlainLp final : public pdes::LogicalProcess {
 public:
  using LogicalProcess::LogicalProcess;
  void handle(const pdes::Event&) override {}
};
}  // namespace

TEST(EngineCheckpoint, LpsWithoutCheckpointSupportAreReportedOnEveryRank) {
  boost::mpi::communicator world;
  EXPECT_TRUE(phold_engine(params())->all_lps_checkpointable());
  // One plain LP, on the last rank only: every rank must learn of it.
  pdes::Engine engine(world, block_map(4, world.size()), pdes::EngineOptions{});
  for (pdes::LpId lp : engine.rank_map().lps_of(world.rank())) {
    if (lp == 3) engine.add_lp(std::make_unique<PlainLp>(lp));
    else engine.add_lp(std::make_unique<phold::PholdLp>(lp, params()));
  }
  EXPECT_FALSE(engine.all_lps_checkpointable());
}

TEST(EngineCheckpoint, StateThatDoesNotFitIsRefusedOnEveryRank) {
  boost::mpi::communicator world;
  auto first = phold_engine(params());
  std::string saved;
  pdes::CheckpointHooks hooks;
  hooks.stop_after_windows = 2;
  hooks.write = [&saved](const std::string& state, pdes::SimTime, std::uint64_t) { saved = state; };
  first->set_checkpoint_hooks(hooks);
  (void)first->run(kEnd);
  // The same state into an engine with half the LPs, and bytes that are no state at all (rank 0 only).
  phold::Params fewer = params();
  fewer.lps = 128;
  EXPECT_THROW(phold_engine(fewer)->restore_from(saved), std::invalid_argument);
  EXPECT_THROW(phold_engine(params())->restore_from(world.rank() == 0 ? std::string("garbage") : saved),
               std::invalid_argument);
}
