#pragma once
// A floor under the estimate of a training iteration (iteration_estimate.hpp), computed from the layout
// alone, without building the programs: what lets a search skip layouts that cannot reach its best
// (branch and bound, docs/search.md).
//
// Every compute op of a stage runs on its one compute stream, one at a time, so a stage is busy at least
// as long as the sum of its compute ops' times: the floor counts each of them as the programs
// (models/workload/training_plan.hpp) issue them, from the same LayerCosts, per micro-batch and model
// chunk, plus the optimizer. A collective "on the critical path" (TP all-reduce, SP all-gather and
// reduce-scatter, EP all-to-all, the all-gather CP's exchanges) depends on the compute op before it and
// the compute op after it waits for it, so its closed-form time adds to the floor too, except where no
// compute op of the stage waits for it: the last ones of a forward step that sends its output on (the
// next compute op belongs to another step) and those of a fully recomputed forward (its output is not
// used). Left out, as they may overlap: pipeline and ring-attention transfers, data-parallel reductions,
// ZeRO-3 gathers, the kernels' waits for anything else.
// A stream runs one op at a time, so a stage lasts at least as long as the ops of its data stream (DP
// gradient reductions, ZeRO 1-2 parameter all-gathers) and of its ZeRO-3 gather stream take, one after
// the other, in the buckets the programs cut.
// Stage s cannot start before micro-batch 0's forward has gone through the first chunks of the stages
// before it, so its floor starts at the sum of those steps' floors (the pipeline's fill); the ZeRO 1-2
// parameter gathers wait for the optimizer, so they add after it. The drain: the last stage's last
// backward step is the last micro-batch's on its first chunk, which then goes back through the first
// chunks of every stage before it before the first stage's optimizer.
// The iteration's floor is the largest stage's; iteration >= floor holds for every layout, which
// tests/search/test_iteration_bound.cpp checks against the estimate.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/vocabulary/program.hpp"
#include "models/workload/training_layout.hpp"
#include "pdes/time.hpp"

namespace rackscale::search {

struct IterationBound {
  pdes::SimTime iteration = 0;          // no stage ends before this
  pdes::SimTime least_compute = 0;      // the least busy stage's compute ops (a floor for any stage's)
  std::vector<pdes::SimTime> compute;   // per stage: the sum of its compute ops' times, exactly
  // Per stage: the sums of the closed-form times of its data stream's ops and of its ZeRO-3 parameter
  // gather stream's, exactly (each stream runs one op at a time: the stage lasts at least either).
  std::vector<pdes::SimTime> data_stream, gather_stream;
};

// Closed-form times of the collectives the floors count, kept across the layouts of one cluster. A
// collective's closed form is a function of its kind, algorithm, size and members only
// (models/collectives/collective_plan.hpp), and a group's members of the layout's grid (tensor, context,
// data, pipeline and expert degrees), the device and the group's kind only (TrainingLayout::group): the
// many layouts of a search that differ in micro-batch, interleaving, ZeRO stage, recomputation or
// sequence parallelism share them, and most of a floor's cost was building the member lists and
// analysing them again (docs/search.md, "Speed").
class CollectiveTimes {
 public:
  explicit CollectiveTimes(const models::network::ClusterSpec& cluster) : cluster_(cluster) {}
  // 0 where the group has one member or nothing is sent. Throws std::invalid_argument as the collectives
  // model does.
  [[nodiscard]] pdes::SimTime time(const models::workload::TrainingLayout& layout, std::uint32_t device,
                                   models::accelerator::CollectiveKind kind, models::accelerator::GroupKind group,
                                   std::uint64_t bytes);
  [[nodiscard]] const models::network::ClusterSpec& cluster() const noexcept { return cluster_; }

 private:
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                         models::accelerator::GroupKind, models::accelerator::CollectiveKind, std::uint64_t>;
  const models::network::ClusterSpec& cluster_;
  std::map<Key, pdes::SimTime> times_;
};

// Throws std::invalid_argument as the collectives model does. The second keeps the closed forms for the
// next layouts of the same cluster.
[[nodiscard]] IterationBound bound_iteration(const models::workload::TrainingLayout& layout,
                                             const models::network::ClusterSpec& cluster);
[[nodiscard]] IterationBound bound_iteration(const models::workload::TrainingLayout& layout, CollectiveTimes& times);

}  // namespace rackscale::search
