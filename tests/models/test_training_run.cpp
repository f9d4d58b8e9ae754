// A whole training run (the README's default example: 64 H100s, TP 2 x PP 2 x DP 16, chunk-level network)
// gives identical figures on any rank count and partition method: each rank first runs it alone as the
// reference. And the figures hang together: the breakdown adds up to the iteration time.
#include <string>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }
}  // namespace

TEST(TrainingRun, IdenticalOnEveryRankCountAndPartitionMethod) {
  const auto scenario = rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml", {});
  const auto reference = rackscale::app::run_training(self(), scenario, {});
  ASSERT_EQ(reference.iteration_times.size(), 2u);
  // Every device's time is accounted for: the mean breakdown adds up to the mean iteration time.
  const double mean_iteration =
      static_cast<double>(reference.iteration_times[0] + reference.iteration_times[1]) / 2.0;
  EXPECT_NEAR(reference.breakdown.total(), mean_iteration, 1e-6 * mean_iteration);
  EXPECT_GT(reference.breakdown.pipeline_bubble, 0.0);
  EXPECT_GT(reference.breakdown.exposed_communication, 0.0);
  for (const std::string method : {"block", "round_robin", "metis"}) {
    rackscale::app::RunOptions options;
    options.partition = method;
    const auto run = rackscale::app::run_training(world(), scenario, options);
    EXPECT_EQ(run.iteration_times, reference.iteration_times) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.forward, reference.breakdown.forward) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.exposed_communication, reference.breakdown.exposed_communication) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.pipeline_bubble, reference.breakdown.pipeline_bubble) << method;
    ASSERT_EQ(run.collectives.size(), reference.collectives.size()) << method;
    for (std::size_t i = 0; i < run.collectives.size(); ++i) {
      EXPECT_EQ(run.collectives[i].tally.calls, reference.collectives[i].tally.calls) << method;
      EXPECT_EQ(run.collectives[i].tally.time, reference.collectives[i].tally.time) << method;
    }
    EXPECT_EQ(run.mfu, reference.mfu) << method;
  }
}
