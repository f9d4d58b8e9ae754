#include "models/workload/parameter_tensors.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "models/workload/model_parameters.hpp"

namespace rackscale::models::workload {
std::vector<ParameterTensor> layer_tensors(const TrainingLayout& l, std::uint32_t layer) {
  const TransformerSpec& m = l.model();
  const std::uint64_t t = l.tensor();
  const std::uint64_t h = m.hidden;
  const std::uint64_t d = h / m.heads;
  const std::uint64_t kv = m.kv_heads >= t ? m.kv_heads / t : 1;
  const std::uint64_t q = m.heads / t;
  std::vector<ParameterTensor> out{{ParameterUse::attention_norm, false, 2 * h},
                                   {ParameterUse::qkv, false, h * (q + 2 * kv) * d},
                                   {ParameterUse::projection, false, q * d * h},
                                   {ParameterUse::mlp_norm, false, 2 * h}};
  const ParameterCount local = local_layer_parameters(l, layer);
  std::uint64_t counted = 0;
  for (const auto& tensor : out) counted += tensor.elements;
  if (!l.is_moe_layer(layer)) {
    // The output matrix h f / T; the input matrices the rest (exactly, whatever the rounding of / T).
    const std::uint64_t mlp_out = h * m.ffn_hidden / t;
    out.push_back({ParameterUse::mlp_in, false, local.dense - counted - mlp_out});
    out.push_back({ParameterUse::mlp_out, false, mlp_out});
    return out;
  }
  const std::uint64_t router = h * m.experts;
  out.push_back({ParameterUse::router, false, router});
  counted += router;
  const std::uint64_t shared = local.dense - counted;  // the shared experts' matrices
  const std::uint64_t shared_out = std::uint64_t{m.shared_experts} * h * m.moe_ffn_hidden / t;
  const std::uint64_t routed_out = std::uint64_t{m.experts / l.expert()} * h * m.moe_ffn_hidden / t;
  if (shared > 0) out.push_back({ParameterUse::experts_in, false, shared - shared_out});
  out.push_back({ParameterUse::experts_in, true, local.expert - routed_out});
  if (shared > 0) out.push_back({ParameterUse::experts_out, false, shared_out});
  out.push_back({ParameterUse::experts_out, true, routed_out});
  return out;
}

std::vector<ParameterTensor> embedding_tensors(const TrainingLayout& l) {
  return {{ParameterUse::embedding, false, local_embedding_parameters(l)}};
}

std::vector<ParameterTensor> output_tensors(const TrainingLayout& l) {
  const std::uint64_t norm = 2 * std::uint64_t{l.model().hidden};
  std::vector<ParameterTensor> out{{ParameterUse::final_norm, false, norm}};
  const std::uint64_t matrix = local_output_parameters(l) - norm;
  if (matrix > 0) out.push_back({ParameterUse::logits, false, matrix});
  return out;
}

std::vector<GatherBucket> gather_buckets(const std::vector<ParameterTensor>& tensors, std::uint64_t min_elements) {
  std::vector<GatherBucket> buckets;
  // The open bucket of each replication group (dense, expert), as an index into `buckets`.
  std::size_t open[2] = {SIZE_MAX, SIZE_MAX};
  for (const ParameterTensor& tensor : tensors) {
    if (tensor.elements == 0) continue;
    std::size_t& slot = open[tensor.expert ? 1 : 0];
    if (slot == SIZE_MAX) {
      slot = buckets.size();
      buckets.push_back({tensor.expert, 0, {}});
    }
    buckets[slot].elements += tensor.elements;
    buckets[slot].uses.push_back(tensor.use);
    if (min_elements > 0 && buckets[slot].elements >= min_elements) slot = SIZE_MAX;
  }
  return buckets;
}

std::uint64_t largest_gather_elements(const TrainingLayout& l, std::uint32_t stage) {
  const std::uint64_t min_elements = l.stack().zero3_gather_elements;
  std::uint64_t largest = 0;
  const auto consider = [&](const std::vector<ParameterTensor>& tensors) {
    for (const GatherBucket& b : gather_buckets(tensors, min_elements)) largest = std::max(largest, b.elements);
  };
  for (std::uint32_t c = 0; c < l.virtual_stages(); ++c) {
    const std::uint32_t chunk = l.model_chunk(stage, c);
    const std::uint32_t first = l.chunk_first_layer(chunk);
    if (chunk == 0) consider(embedding_tensors(l));
    for (std::uint32_t layer = first; layer < first + l.chunk_layers(chunk); ++layer) consider(layer_tensors(l, layer));
    if (chunk + 1 == l.model_chunks()) consider(output_tensors(l));
  }
  return largest;
}

std::uint32_t zero3_prefetch_depth(const TrainingLayout& l, std::uint32_t stage) {
  std::uint32_t depth = l.stack().zero3_prefetch;
  const std::uint64_t cap = l.stack().zero3_max_live_elements;
  if (cap == 0) return depth;
  const std::uint64_t largest = largest_gather_elements(l, stage);
  while (depth > 0 && (std::uint64_t{depth} + 1) * largest > cap) --depth;
  return depth;
}

}  // namespace rackscale::models::workload
