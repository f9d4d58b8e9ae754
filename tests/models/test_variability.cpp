// Variability inside an iteration (issue 26, item 1; docs/goodput.md): a straggler's cost worked out by
// hand from its ops' durations, and every figure of a run with slow devices and jitter identical on any
// rank count and partition method (each rank first runs it alone as the reference).
#include <algorithm>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/accelerator/compute_model.hpp"
#include "models/accelerator/compute_variability.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/time.hpp"

namespace {
boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

namespace acc = rackscale::models::accelerator;
namespace wl = rackscale::models::workload;

// The README's example cut to pure data parallelism on one HGX node: 8 devices, DP 8, two micro-batches
// each, the analytical network (collectives in NCCL's closed form over NVLink).
std::vector<std::string> pure_data_parallel() {
  return {"cluster.nodes=1", "network.fidelity=analytical", "workload.parallel.tensor=1",
          "workload.parallel.pipeline=1", "workload.parallel.sequence_parallel=false",
          "workload.parallel.global_batch=16"};
}
}  // namespace

// One device at factor f in a pure-DP job: every synchronous step waits for it, so each iteration grows by
// (f - 1) x its compute per iteration, C = the sum of its compute ops' roofline times (compute_model.hpp),
// summed here from the plan's program, not simulated. Each op's stretch is rounded to the picosecond: the
// difference is within one picosecond per op.
TEST(Straggler, OneSlowDeviceInPureDataParallelStretchesEachStepByItsComputeShare) {
  const double f = 1.5;
  const std::uint32_t slow = 3;
  auto overrides = pure_data_parallel();
  overrides.push_back("workload.variability.compute.slow=[{device: 3, factor: 1.5}]");
  const auto scenario = rackscale::io::load_scenario(RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml", overrides);
  const auto run = rackscale::app::run_training(world(), scenario, {});
  ASSERT_TRUE(run.variability && run.variability->perfect_iteration);

  const wl::TrainingPlan plan = wl::build_training_plan(scenario.workload.training, scenario.cluster);
  ASSERT_EQ(plan.layout.data(), 8u);
  const acc::Program& program = plan.programs[plan.layout.role_of(slow)];
  rackscale::pdes::SimTime compute = 0;
  std::uint64_t ops = 0;
  for (const acc::Op& op : program.ops) {
    if (op.kind != acc::OpKind::compute) continue;
    compute += acc::compute_time(scenario.cluster.accelerator, op.cost);
    ++ops;
  }
  ASSERT_GT(compute, 0u);
  const double expected = static_cast<double>(*run.variability->perfect_iteration) + (f - 1) * static_cast<double>(compute);
  ASSERT_EQ(run.iteration_times.size(), 2u);
  for (const auto t : run.iteration_times) EXPECT_NEAR(static_cast<double>(t), expected, static_cast<double>(ops));
  const double perfect = static_cast<double>(*run.variability->perfect_iteration);
  EXPECT_NEAR(run.variability->slowdown, expected / perfect, static_cast<double>(ops) / perfect);
  EXPECT_EQ(run.variability->slowest_device, slow);
  // The others waited for it; the iteration's last collective ends on every member at once.
  EXPECT_EQ(run.variability->critical_device, slow);
  EXPECT_DOUBLE_EQ(run.variability->critical_factor, f);
  EXPECT_DOUBLE_EQ(run.variability->slowest_factor, f);
  EXPECT_DOUBLE_EQ(run.variability->factor_max, f);
  EXPECT_DOUBLE_EQ(run.variability->factor_min, 1.0);
}

// Lognormal speed factors, exponential kernel jitter, a slow device and a degraded NIC cable on the
// README's example (TP 2 x PP 2 x DP 16), one iteration, analytical network with the collectives as
// messages (so the degraded cable is used; chunk fidelity on 2 ranks took over 90 s on the loaded test
// machine): the same figures alone and on every rank count and partition method.
TEST(Variability, IdenticalOnEveryRankCountAndPartitionMethod) {
  const auto scenario = rackscale::io::load_scenario(
      RACKSCALE_TRAINING_CONFIGS "/laptop-64.yaml",
      {"workload.variability={compute: {distribution: lognormal, sigma: 0.02, slow: [{device: 17, factor: 1.1}]}, "
       "jitter: {distribution: exponential, mean: 5us}}",
       "cluster.degraded_links=[{link: 3, fraction: 0.5}]", "network.fidelity=analytical",
       "network.collectives=messages", "workload.iterations=1"});
  const auto reference = rackscale::app::run_training(self(), scenario, {});
  ASSERT_TRUE(reference.variability && reference.variability->perfect_iteration);
  EXPECT_GT(reference.variability->slowdown, 1.0);
  // The extremes of the factors every device drew, from the draws themselves (in millionths).
  double low = 2, high = 0;
  for (std::uint32_t d = 0; d < 64; ++d) {
    const double factor = acc::speed_factor(scenario.workload.training.variability, scenario.simulation.seed, d);
    low = std::min(low, factor);
    high = std::max(high, factor);
  }
  EXPECT_NEAR(reference.variability->factor_max, high, 1e-6);
  EXPECT_NEAR(reference.variability->factor_min, low, 1e-6);
  EXPECT_LT(low, 1.0);
  for (const std::string method : {"block", "round_robin"}) {
    rackscale::app::RunOptions options;
    options.partition = method;
    const auto run = rackscale::app::run_training(world(), scenario, options);
    EXPECT_EQ(run.iteration_times, reference.iteration_times) << method;
    EXPECT_EQ(run.variability->perfect_iteration, reference.variability->perfect_iteration) << method;
    EXPECT_EQ(run.variability->slowest_device, reference.variability->slowest_device) << method;
    EXPECT_EQ(run.variability->slowest_compute, reference.variability->slowest_compute) << method;
    EXPECT_EQ(run.variability->last_device, reference.variability->last_device) << method;
    EXPECT_EQ(run.variability->critical_device, reference.variability->critical_device) << method;
    EXPECT_EQ(run.variability->critical_wait, reference.variability->critical_wait) << method;
    EXPECT_EQ(run.variability->busiest.port, reference.variability->busiest.port) << method;
    EXPECT_EQ(run.variability->busiest.busy, reference.variability->busiest.busy) << method;
    ASSERT_EQ(run.variability->degraded.size(), 1u) << method;
    EXPECT_EQ(run.variability->degraded[0].busy, reference.variability->degraded[0].busy) << method;
    EXPECT_DOUBLE_EQ(run.breakdown.forward, reference.breakdown.forward) << method;
    EXPECT_EQ(run.energy.limbs(), reference.energy.limbs()) << method;
  }
}
