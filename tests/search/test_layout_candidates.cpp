// The pruning rules (src/search/layout_candidates.hpp) on laptop-64's job: counts by rule worked out by
// hand from the job's sizes, shares over ranks, the balanced uneven stages.
#include <gtest/gtest.h>

#include <algorithm>

#include "io/config/scenario_loader.hpp"
#include "models/workload/training_layout.hpp"
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
