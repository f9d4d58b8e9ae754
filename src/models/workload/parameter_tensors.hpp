#pragma once
// A device's parameters as the tensors a framework holds them in, in the order a unit's forward pass
// uses them: what ZeRO-3 gathers and reduce-scatters. A unit is what training_plan.hpp gathers as one:
// a transformer layer, the embedding, the output layer. The tensors of a unit add up to its
// model_parameters.hpp count (dense ones to ParameterCount::dense, expert ones to ::expert).
//
// A layer: attention norm (2h), QKV, projection, MLP norm (2h), then a dense MLP's input matrices
// (GeLU h f / T; SwiGLU's gate and up 2 h f / T, used together) and output matrix, or an MoE block's
// router (h E), input and output matrices of its shared experts (dense) and of its local routed
// experts (expert parameters). The embedding is one tensor; the output layer its final norm and,
// unless tied on a single model chunk, the output matrix.
//
// Gather buckets (ZeRO-3, StackSpec::zero3_gather_elements = B): consecutive tensors of one replication
// group (dense over the data group, expert over the expert-data group) in use order, a bucket closing
// once it holds at least B elements (a tensor is never split); B = 0: all of a unit's tensors of a
// group in one bucket. Buckets never span units.
#include <cstdint>
#include <vector>

#include "models/workload/training_layout.hpp"

namespace rackscale::models::workload {

// The compute op that uses a tensor's weights (training_plan.cpp asks for them before it).
enum class ParameterUse : std::uint8_t {
  attention_norm, qkv, projection, mlp_norm, mlp_in, mlp_out, router, experts_in, experts_out, embedding,
  final_norm, logits,
};

struct ParameterTensor {
  ParameterUse use;
  bool expert = false;        // replicated over the expert-data group (else the data group)
  std::uint64_t elements = 0; // on this device, before ZeRO sharding
};

// The tensors of transformer layer `layer`, of the embedding, of the output layer, in forward use order.
[[nodiscard]] std::vector<ParameterTensor> layer_tensors(const TrainingLayout& layout, std::uint32_t layer);
[[nodiscard]] std::vector<ParameterTensor> embedding_tensors(const TrainingLayout& layout);
[[nodiscard]] std::vector<ParameterTensor> output_tensors(const TrainingLayout& layout);

struct GatherBucket {
  bool expert = false;
  std::uint64_t elements = 0;
  std::vector<ParameterUse> uses;  // the tensors it holds, by their use
};

// `tensors` (one unit's, in the order they are first used) grouped into buckets of at least
// `min_elements` (0: one bucket per replication group), in the same order.
[[nodiscard]] std::vector<GatherBucket> gather_buckets(const std::vector<ParameterTensor>& tensors,
                                                       std::uint64_t min_elements);

// The largest ZeRO-3 gather bucket of `stage`'s units (elements).
[[nodiscard]] std::uint64_t largest_gather_elements(const TrainingLayout& layout, std::uint32_t stage);
// The gathers that may run ahead on `stage`: StackSpec::zero3_prefetch, less where zero3_max_live_elements
// would not hold that many of the stage's largest buckets besides the one in use (never below 0).
[[nodiscard]] std::uint32_t zero3_prefetch_depth(const TrainingLayout& layout, std::uint32_t stage);

}  // namespace rackscale::models::workload
