#pragma once
// Parameter counts of a transformer: of the whole model, and of one device's shard.
//
// Counted: every weight matrix (QKV with grouped-query attention h x (a + 2 g) d, output projection
// a d x h, MLP h x f x 2 (GeLU) or x 3 (SwiGLU), MoE router h x E, experts and shared experts like
// MLPs of width moe_ffn_hidden), two norms per layer and a final norm of 2h each (LayerNorm weight
// and bias; RMSNorm's h would change the total by under 0.01%), the input embedding V x h and, unless
// tied, the output layer V x h. Biases and learned position embeddings are left out (Llama-style
// models have none; for GPT-3 175B they are 0.2% of the parameters).
//
// A device's shard: matrices split over tensor parallelism (key/value heads replicated when the TP
// group has more ranks than kv_heads, as Megatron-LM does), norms and the router replicated, E / EP
// experts per device, vocabulary rows ceil(V / T). With tied embeddings the output layer uses the
// embedding's weights when both are on the same device (a single model chunk); otherwise the last
// stage holds its own copy, as in Megatron-LM.
#include <cstdint>

#include "models/workload/training_layout.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::models::workload {

// Parameters split by how they are replicated: dense ones over the DP x CP group, expert ones over
// the expert-data group.
struct ParameterCount {
  std::uint64_t dense = 0;
  std::uint64_t expert = 0;
  [[nodiscard]] std::uint64_t total() const noexcept { return dense + expert; }
  ParameterCount& operator+=(const ParameterCount& o) noexcept {
    dense += o.dense;
    expert += o.expert;
    return *this;
  }
};

// Whole model, `model` with its defaults resolved (TrainingLayout::model()).
[[nodiscard]] std::uint64_t total_parameters(const TransformerSpec& model);
// Parameters one token passes through: top_k routed experts (plus the shared ones) of each MoE layer;
// the input embedding is a lookup and is left out, the output layer is in. This is the N of
// 6 N tokens, the MFU numerator (TrainingPlan::model_flops).
[[nodiscard]] std::uint64_t active_matmul_parameters(const TransformerSpec& model);

// One device's shard.
[[nodiscard]] ParameterCount local_layer_parameters(const TrainingLayout& layout, std::uint32_t layer);
[[nodiscard]] std::uint64_t local_embedding_parameters(const TrainingLayout& layout);
// Final norm and, unless tied on a single model chunk, the output layer.
[[nodiscard]] std::uint64_t local_output_parameters(const TrainingLayout& layout);
// Everything on `stage` (all its virtual stages, with the embedding on model chunk 0 and the output
// layer on the last model chunk).
[[nodiscard]] ParameterCount local_stage_parameters(const TrainingLayout& layout, std::uint32_t stage);

}  // namespace rackscale::models::workload
