#pragma once
// From a layout space to the layouts worth estimating: every point of the product, in a fixed order,
// made into a parallel layout of the config's job and kept only if it passes every rule.
//
// Rules, in the order they are tried (a layout is counted under the first it fails; docs/search.md):
//   1. the job's own validity: whatever TrainingLayout refuses (tensor x pipeline x context must divide
//      the devices, heads and key/value heads by tensor, layers over pipeline x virtual stages, the
//      global batch over data x micro-batch, the sequence over 2 x context, experts over expert
//      parallelism, EP within DP x CP ...), counted under the config key its message names;
//   2. "memory": the largest pipeline stage's peak (models/workload/memory_model.hpp) exceeds the
//      accelerator's memory.
// Each survivor carries the floor under its estimate (iteration_bound.hpp), for branch and bound.
// Virtual stages over 1 need more than one pipeline stage; uneven layer counts: when the layers do not
// divide over pipeline x virtual stages, the first and last stages take fewer (Llama 3's 126 layers on
// 16 x 4 chunks: 7 on each end, 8 on every other stage), if that gives every chunk at least one layer.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/workload/training_spec.hpp"
#include "pdes/time.hpp"
#include "search/layout_space.hpp"

namespace rackscale::search {

// One layout that passed every rule.
struct Candidate {
  std::uint64_t index = 0;  // its position in the space's product (the enumeration order)
  models::workload::ParallelSpec parallel;  // data parallelism derived (TrainingLayout::data)
  std::uint64_t peak_memory = 0;  // bytes per device, the largest stage's
  std::uint64_t tokens_per_iteration = 0;
  // The floor under its estimate (iteration_bound.hpp): no stage ends before floor_iteration, and every
  // stage computes at least floor_compute.
  pdes::SimTime floor_iteration = 0;
  pdes::SimTime floor_compute = 0;
};

struct Pruning {
  std::uint64_t layouts = 0;  // points of the product examined
  std::map<std::string, std::uint64_t> pruned;  // by rule: a config key, or "memory"
  std::vector<Candidate> kept;                  // by index

  [[nodiscard]] std::uint64_t pruned_total() const noexcept;
  // Adds another share's counts and candidates (shares of one space combine in any order into the same
  // result: kept stays sorted by index).
  void merge(const Pruning& other);
};

// The points of `space`'s product whose index is `first`, first + stride, first + 2 stride, ... (a rank's
// share: first = rank, stride = ranks), each made into `spec` with the axes' values and checked.
[[nodiscard]] Pruning prune_layouts(const models::workload::TrainingSpec& spec,
                                    const models::network::ClusterSpec& cluster, const LayoutSpace& space,
                                    std::uint64_t first = 0, std::uint64_t stride = 1);

// Points in `space`'s product, counting those that repeat another (LayoutSpace::size() does not).
[[nodiscard]] std::uint64_t product_points(const LayoutSpace& space);
// The layout at `index` of the product (the axes' values in `spec`'s parallel section, data parallelism
// left to be derived, uneven stages balanced as above), or nothing for a point that repeats another
// (sequence parallelism on with tensor 1 where off is in the space too). Not checked against any rule.
[[nodiscard]] std::optional<models::workload::ParallelSpec> layout_at(const models::workload::TrainingSpec& spec,
                                                                      const LayoutSpace& space, std::uint64_t index);

// `spec`'s parallel section with a candidate's layout (the rest of the job unchanged).
[[nodiscard]] models::workload::TrainingSpec with_layout(const models::workload::TrainingSpec& spec,
                                                         const models::workload::ParallelSpec& parallel);

// "TP 8, PP 16 (V 4), DP 128, CP 1, EP 1, mb 1, ZeRO 1, recompute none, SP on".
[[nodiscard]] std::string describe(const models::workload::ParallelSpec& parallel, std::uint64_t devices);

}  // namespace rackscale::search
