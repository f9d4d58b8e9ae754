// The fast estimate (src/search/iteration_estimate.hpp) against the event simulation of the same layouts
// in analytical fidelity, one iteration each: every eighth layout (every 64th under ASan) of a space of
// laptop-64's job (TP 1-8, PP 1-4, interleaving, CP, micro-batches, ZeRO 1 and 3), and a few of Llama 3
// 70B on 1,024 H100s. The estimate runs one device per pipeline stage with its own scheduler; the
// simulation runs every device through the engine, the collectives model and the analytical fabric.
// They must agree within 1e-5 relative: many layouts agree to the picosecond, others end 0.4-0.9 us
// (3.5e-6) earlier in the estimate (not explained yet; docs/search.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/training_run.hpp"
#include "io/config/scenario_loader.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/training_plan.hpp"
#include "search/iteration_estimate.hpp"
#include "search/layout_candidates.hpp"

namespace {
namespace wl = rackscale::models::workload;
using rackscale::search::Candidate;

#ifdef RACKSCALE_UNDER_ASAN
// Under ASan the stride-8 comparison ran over 30 minutes on 2 shared cores (docs/reliability.md, fourth
// attempt): it compares fewer laptop layouts there and leaves the 1,024-device ones to the Release build.
constexpr std::size_t kLayoutStride = 64;
#else
constexpr std::size_t kLayoutStride = 8;
#endif

rackscale::models::Scenario laptop() {
  return rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml",
                                      {"network.fidelity=analytical", "workload.iterations=1"});
}
}  // namespace

TEST(IterationEstimate, MatchesTheAnalyticalSimulationOfEachLayout) {
  const boost::mpi::communicator world;
  auto scenario = laptop();
  const auto& cluster = scenario.cluster;
  const auto space = rackscale::search::parse_space(
      "tensor=1,2,4,8 pipeline=1,2,4 virtual=1,2 context=1,2 micro_batch=1,2 zero=1,3 recompute=selective "
      "sequence_parallel=on",
      rackscale::search::default_space(scenario.workload.training, cluster));
  const auto pruning = rackscale::search::prune_layouts(scenario.workload.training, cluster, space);
  ASSERT_GE(pruning.kept.size(), 20u);
  const auto topology = rackscale::models::network::build_topology(cluster, scenario.network.routing);
  double worst = 0;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < pruning.kept.size(); k += kLayoutStride) {
    const Candidate& c = pruning.kept[k];
    ++compared;
    const wl::TrainingSpec spec = rackscale::search::with_layout(scenario.workload.training, c.parallel);
    const auto plan = wl::build_training_plan(spec, cluster);
    const auto estimate = rackscale::search::estimate_iteration(plan, cluster, topology);
    scenario.workload.training = spec;
    const auto report = rackscale::app::run_training(world, scenario, {});
    const double error = (static_cast<double>(estimate.iteration) - static_cast<double>(report.iteration_time)) /
                         static_cast<double>(report.iteration_time);
    worst = std::max(worst, std::abs(error));
    std::printf("%-80s simulated %12.3f us  estimate %12.3f us  %+6.2f%%\n",
                rackscale::search::describe(c.parallel, cluster.devices()).c_str(),
                static_cast<double>(report.iteration_time) / 1e6, static_cast<double>(estimate.iteration) / 1e6,
                100 * error);
    EXPECT_NEAR(static_cast<double>(estimate.iteration), static_cast<double>(report.iteration_time),
                1e-5 * static_cast<double>(report.iteration_time))
        << rackscale::search::describe(c.parallel, cluster.devices());
  }
  std::printf("%zu of %zu layouts compared, worst error %.2g%%\n", compared, pruning.kept.size(), 100 * worst);
}

TEST(IterationEstimate, MatchesTheSimulationOnARailOptimizedThousandDeviceCluster) {
#ifdef RACKSCALE_UNDER_ASAN
  GTEST_SKIP() << "1,024-device simulations are too slow under AddressSanitizer (tests/search/CMakeLists.txt)";
#endif
  const boost::mpi::communicator world;
  auto scenario = rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/llama3-70b-1024-h100.yaml",
                                               {"network.fidelity=analytical", "workload.iterations=1"});
  const auto& cluster = scenario.cluster;
  const auto space = rackscale::search::parse_space(
      "tensor=4,8 pipeline=4,8 virtual=1,5 context=1 micro_batch=1 zero=1 recompute=selective sequence_parallel=on",
      rackscale::search::default_space(scenario.workload.training, cluster));
  const auto pruning = rackscale::search::prune_layouts(scenario.workload.training, cluster, space);
  ASSERT_GE(pruning.kept.size(), 4u);
  const auto topology = rackscale::models::network::build_topology(cluster, scenario.network.routing);
  for (const Candidate& c : pruning.kept) {
    const wl::TrainingSpec spec = rackscale::search::with_layout(scenario.workload.training, c.parallel);
    const auto estimate =
        rackscale::search::estimate_iteration(wl::build_training_plan(spec, cluster), cluster, topology);
    scenario.workload.training = spec;
    const auto report = rackscale::app::run_training(world, scenario, {});
    std::printf("%-80s simulated %12.3f us  estimate %12.3f us\n",
                rackscale::search::describe(c.parallel, cluster.devices()).c_str(),
                static_cast<double>(report.iteration_time) / 1e6, static_cast<double>(estimate.iteration) / 1e6);
    EXPECT_NEAR(static_cast<double>(estimate.iteration), static_cast<double>(report.iteration_time),
                1e-5 * static_cast<double>(report.iteration_time))
        << rackscale::search::describe(c.parallel, cluster.devices());
  }
}
