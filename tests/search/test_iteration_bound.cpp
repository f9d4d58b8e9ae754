// The floor under the estimate (src/search/iteration_bound.hpp), which lets a search skip layouts:
// its compute part must be exactly each stage's compute ops as the programs issue them, its stream
// parts exactly the closed-form times of each stage's data and ZeRO-3 gather streams (it mirrors
// training_plan.cpp without building the programs: a change there that the floor misses fails here),
// and the whole floor must never exceed the estimate's iteration, over spaces that cover TP with and
// without SP, pipelines with interleaving and uneven stages, ring and all-gather CP, MoE with EP,
// the three recomputation policies and ZeRO 0-3.
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "io/config/scenario_loader.hpp"
#include "models/accelerator/compute_model.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/training_plan.hpp"
#include "search/iteration_bound.hpp"
#include "search/iteration_estimate.hpp"
#include "search/layout_candidates.hpp"

namespace {
namespace wl = rackscale::models::workload;
namespace search = rackscale::search;
namespace acc = rackscale::models::accelerator;

// Every `step`-th survivor of `space` on `config`: the floor's compute against the programs', and the
// floor against the estimate.
void check_space(const std::string& config, const std::vector<std::string>& overrides, const std::string& space_text,
                 std::size_t step, std::size_t at_least) {
  const auto scenario = rackscale::io::load_scenario(config, overrides);
  const auto& cluster = scenario.cluster;
  const auto& job = scenario.workload.training;
  const auto space = search::parse_space(space_text, search::default_space(job, cluster));
  const auto pruning = search::prune_layouts(job, cluster, space);
  const auto topology = rackscale::models::network::build_topology(cluster, scenario.network.routing);
  std::size_t checked = 0;
  double tightest = 0;
  for (std::size_t k = 0; k < pruning.kept.size(); k += step) {
    const search::Candidate& c = pruning.kept[k];
    const std::string name = search::describe(c.parallel, cluster.devices());
    const wl::TrainingPlan plan = wl::build_training_plan(search::with_layout(job, c.parallel), cluster);
    const search::IterationBound bound = search::bound_iteration(plan.layout, cluster);
    ASSERT_EQ(bound.compute.size(), plan.programs.size()) << name;
    for (std::size_t s = 0; s < plan.programs.size(); ++s) {
      rackscale::pdes::SimTime compute = 0;
      std::array<rackscale::pdes::SimTime, wl::kStreams> streams{};
      const std::uint32_t device = plan.layout.device_at(0, 0, 0, static_cast<std::uint32_t>(s));
      for (const auto& op : plan.programs[s].ops) {
        if (op.kind == acc::OpKind::compute) compute += acc::compute_time(cluster.accelerator, op.cost);
        if (op.kind != acc::OpKind::collective) continue;
        rackscale::models::collectives::CollectiveCall call;
        call.kind = op.collective;
        call.algorithm = op.algorithm;
        call.bytes = op.bytes;
        call.members = plan.layout.group(device, op.group);
        streams[op.stream] += rackscale::models::collectives::time_closed_form(cluster, call).duration;
      }
      EXPECT_EQ(bound.compute[s], compute) << name << ", stage " << s;
      EXPECT_EQ(bound.data_stream[s], streams[wl::kDataStream]) << name << ", stage " << s;
      EXPECT_EQ(bound.gather_stream[s], streams[wl::kParamGatherStream]) << name << ", stage " << s;
    }
    const auto estimate = search::estimate_iteration(plan, cluster, topology);
    EXPECT_LE(bound.iteration, estimate.iteration) << name;
    EXPECT_LE(bound.least_compute, estimate.compute) << name;
    tightest = std::max(tightest, static_cast<double>(bound.iteration) / static_cast<double>(estimate.iteration));
    ++checked;
  }
  EXPECT_GE(checked, at_least);
  std::printf("%zu layouts of %zu: the floor reaches up to %.4f of the estimate\n", checked, pruning.kept.size(),
              tightest);
}

}  // namespace

TEST(IterationBound, LaptopLayoutsComputeExactlyAndStayUnderTheEstimate) {
  check_space(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", {},
              "tensor=1,2,4,8 pipeline=1,2,4,8 virtual=1,2,3 context=1,2 micro_batch=1,2 zero=0..3 "
              "recompute=none,selective,full sequence_parallel=off,on",
              7, 100);
}

TEST(IterationBound, AllGatherContextParallelismAndBlockingTransfers) {
  check_space(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml",
              {"workload.parallel.context_algorithm=all_gather", "workload.stack.pipeline_transfers=blocking"},
              "tensor=1,2,4 pipeline=1,2,4 virtual=1,2 context=2,4 micro_batch=1 zero=1,3 "
              "recompute=none,selective,full",
              3, 20);
}

TEST(IterationBound, SeventyBillionOnARailOptimizedCluster) {
  check_space(RACKSCALE_SOURCE_DIR "/configs/training/llama3-70b-1024-h100.yaml", {},
              "tensor=4,8 pipeline=4,8 virtual=1,5 context=1,2 micro_batch=1 zero=1 recompute=selective,full "
              "sequence_parallel=on",
              1, 4);
}

TEST(IterationBound, MixtureOfExpertsWithExpertParallelism) {
  check_space(RACKSCALE_SOURCE_DIR "/configs/training/deepseek-v3-2048-h100.yaml", {"workload.parallel.global_batch=2048"},
              "tensor=1,2 pipeline=16 virtual=1,2 context=1 expert=32,64 micro_batch=1 zero=1 "
              "recompute=selective,full sequence_parallel=on",
              1, 2);
}

TEST(IterationBound, OverlappedBucketsAndSeparateZeroThreeStreams) {
  check_space(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml",
              {"workload.stack.overlap_grad_reduce=true", "workload.stack.grad_bucket_size=20MB",
               "workload.stack.zero3_reduce_elements=3000000", "workload.stack.zero3_gather_elements=5000000",
               "workload.stack.zero3_streams=2"},
              "tensor=1,2 pipeline=1,2,4 virtual=1,2 context=1 micro_batch=1,2 zero=0..3 recompute=selective,full",
              2, 20);
}
