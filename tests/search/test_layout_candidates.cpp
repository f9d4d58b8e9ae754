// The pruning rules (src/search/layout_candidates.hpp) on laptop-64's job: counts by rule worked out by
// hand from the job's sizes, shares over ranks, the balanced uneven stages.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "io/config/scenario_loader.hpp"
#include "models/workload/memory_model.hpp"
#include "models/workload/training_layout.hpp"
#include "search/iteration_bound.hpp"
#include "search/layout_candidates.hpp"

namespace {
namespace wl = rackscale::models::workload;
using rackscale::search::parse_space;
using rackscale::search::prune_layouts;

rackscale::models::Scenario laptop() {
  return rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/laptop-64.yaml", {});
}
}  // namespace

TEST(LayoutCandidates, EveryLayoutIsKeptOrCountedUnderTheFirstRuleItFails) {
  const auto s = laptop();
  // laptop-64: 64 devices, 16 layers, 16 heads, 8 key/value heads, sequence 4096, global batch 128.
  const auto space = parse_space(
      "tensor=1,2,4,8,16,32 pipeline=1,2,3,4 virtual=1,2 context=1 micro_batch=1 zero=1 recompute=selective "
      "sequence_parallel=on",
      rackscale::search::default_space(s.workload.training, s.cluster));
  const auto r = prune_layouts(s.workload.training, s.cluster, space);
  // 6 tensor x 4 pipeline x 2 virtual points.
  EXPECT_EQ(r.layouts, 48u);
  EXPECT_EQ(r.kept.size() + r.pruned_total(), r.layouts);
  // Virtual stages with one pipeline stage: 6 tensor values.
  EXPECT_EQ(r.pruned.at("workload.parallel.virtual_stages"), 6u);
  // Kept, by hand: tensor 1..16 (16 heads; 32 does not divide them) with pipeline 1, 2, 4 (3 does not
  // divide 64 devices); virtual 2 on pipeline 2 and 4 (16 layers over 4 and 8 chunks). Tensor 16 needs
  // ... every kept layout divides as TrainingLayout requires.
  for (const auto& c : r.kept) {
    EXPECT_EQ(64u % (c.parallel.tensor * c.parallel.pipeline), 0u);
    EXPECT_NE(c.parallel.pipeline, 3u);
    EXPECT_LE(c.parallel.tensor, 16u);
    EXPECT_GT(c.peak_memory, 0u);
    EXPECT_LE(c.peak_memory, s.cluster.accelerator.memory_bytes);
  }
  // tensor 1-16 (5) x pipeline {1, 2, 4} with virtual 1 (15), + virtual 2 on pipeline 2, 4 (10) = 25.
  EXPECT_EQ(r.kept.size(), 25u);
  // Sorted by index, indexes unique.
  EXPECT_TRUE(std::is_sorted(r.kept.begin(), r.kept.end(), [](const auto& a, const auto& b) { return a.index < b.index; }));
}

TEST(LayoutCandidates, SharesOverRanksMergeIntoTheWhole) {
  const auto s = laptop();
  const auto space = parse_space("tensor=1,2,4,8 pipeline=1,2,4 micro_batch=1,2,4 zero=0..3 context=1,2 virtual=1,2",
                                 rackscale::search::default_space(s.workload.training, s.cluster));
  const auto whole = prune_layouts(s.workload.training, s.cluster, space);
  auto merged = prune_layouts(s.workload.training, s.cluster, space, 2, 3);
  merged.merge(prune_layouts(s.workload.training, s.cluster, space, 0, 3));
  merged.merge(prune_layouts(s.workload.training, s.cluster, space, 1, 3));
  EXPECT_EQ(merged.layouts, whole.layouts);
  EXPECT_EQ(merged.pruned, whole.pruned);
  ASSERT_EQ(merged.kept.size(), whole.kept.size());
  for (std::size_t i = 0; i < whole.kept.size(); ++i) {
    EXPECT_EQ(merged.kept[i].index, whole.kept[i].index);
    EXPECT_EQ(merged.kept[i].peak_memory, whole.kept[i].peak_memory);
  }
  EXPECT_EQ(whole.layouts, space.size());
}

TEST(LayoutCandidates, UnevenLayersComeOffTheFirstAndLastStages) {
  // Llama 3 405B's 126 layers on 16 stages x 4 chunks: chunks of 2, 2 missing: 7 layers on the first and
  // the last stage, 8 on the others (the published layout).
  auto s = laptop();
  s.workload.training.model.layers = 126;
  s.workload.training.model.heads = 16;
  const auto space = parse_space("tensor=1 pipeline=16 virtual=4 context=1 micro_batch=1 zero=3 recompute=full",
                                 rackscale::search::default_space(s.workload.training, s.cluster));
  const auto r = prune_layouts(s.workload.training, s.cluster, space);
  ASSERT_EQ(r.kept.size(), 1u) << (r.pruned.empty() ? "" : r.pruned.begin()->first);
  EXPECT_EQ(r.kept[0].parallel.first_stage_layers, 7u);
  EXPECT_EQ(r.kept[0].parallel.last_stage_layers, 7u);
  const wl::TrainingLayout layout(rackscale::search::with_layout(s.workload.training, r.kept[0].parallel), 64);
  EXPECT_EQ(layout.stage_layers(0), 7u);
  EXPECT_EQ(layout.stage_layers(1), 8u);
  EXPECT_EQ(layout.stage_layers(15), 7u);
}

// The pruning finds the rule a family of points (differing only in ZeRO stage and recomputation) breaks
// once, and shares the floors' closed forms between layouts of one grid; every point checked on its own,
// as a layout would be alone, must give the same counts, survivors and floors. The default space of laptop-64 (every axis) and of Llama 3 70B on 1,024 H100s (tensor,
// pipeline and micro-batch cut down), whole and in shares of 2 and 3.
TEST(LayoutCandidates, PruningEqualsCheckingEveryPointAlone) {
  for (const auto& [config, axes] :
       {std::pair<std::string, std::string>{"laptop-64", ""},
        {"llama3-70b-1024-h100", "tensor=1,4,8 pipeline=1,2,4,8,16 micro_batch=1,2 context=1,2"}}) {
    const auto s = rackscale::io::load_scenario(RACKSCALE_SOURCE_DIR "/configs/training/" + config + ".yaml", {});
    const auto& job = s.workload.training;
    const auto space = parse_space(axes, rackscale::search::default_space(job, s.cluster));
    rackscale::search::Pruning alone;
    for (std::uint64_t index = 0; index < rackscale::search::product_points(space); ++index) {
      auto p = rackscale::search::layout_at(job, space, index);
      if (!p) continue;
      ++alone.layouts;
      try {
        if (p->virtual_stages > 1 && p->pipeline < 2) throw std::invalid_argument("workload.parallel.virtual_stages:");
        const wl::TrainingLayout layout(rackscale::search::with_layout(job, *p), s.cluster.devices());
        std::uint64_t peak = 0;
        for (const auto& stage : wl::job_memory(layout)) peak = std::max(peak, stage.total());
        if (peak > s.cluster.accelerator.memory_bytes) throw std::invalid_argument("memory:");
        // Its floor with closed forms of its own (prune_layouts shares them between layouts of a grid).
        const auto floor = rackscale::search::bound_iteration(layout, s.cluster);
        alone.kept.push_back({index, *p, peak, layout.tokens_per_iteration(), floor.iteration, floor.least_compute});
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        ++alone.pruned[what.substr(0, what.find(':'))];
      }
    }
    for (const std::uint64_t ranks : {1u, 2u, 3u}) {
      rackscale::search::Pruning shares;
      for (std::uint64_t r = 0; r < ranks; ++r) shares.merge(prune_layouts(job, s.cluster, space, r, ranks));
      EXPECT_EQ(shares.layouts, alone.layouts) << config << ", " << ranks << " shares";
      EXPECT_EQ(shares.pruned, alone.pruned) << config << ", " << ranks << " shares";
      ASSERT_EQ(shares.kept.size(), alone.kept.size()) << config << ", " << ranks << " shares";
      for (std::size_t i = 0; i < alone.kept.size(); ++i) {
        EXPECT_EQ(shares.kept[i].index, alone.kept[i].index);
        EXPECT_EQ(shares.kept[i].peak_memory, alone.kept[i].peak_memory);
        EXPECT_EQ(shares.kept[i].tokens_per_iteration, alone.kept[i].tokens_per_iteration);
        EXPECT_EQ(shares.kept[i].floor_iteration, alone.kept[i].floor_iteration);
        EXPECT_EQ(shares.kept[i].floor_compute, alone.kept[i].floor_compute);
        EXPECT_EQ(shares.kept[i].parallel.data, 0u + s.cluster.devices() / (alone.kept[i].parallel.tensor *
                                                                            alone.kept[i].parallel.pipeline *
                                                                            alone.kept[i].parallel.context));
      }
    }
  }
}
