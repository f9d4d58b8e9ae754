#include "models/workload/model_parameters.hpp"

namespace rackscale::models::workload {
namespace {

std::uint64_t mlp_matrices(const TransformerSpec& m) { return m.activation == Activation::swiglu ? 3 : 2; }
std::uint64_t head_dim(const TransformerSpec& m) { return m.hidden / m.heads; }
std::uint64_t norm_parameters(const TransformerSpec& m) { return 2 * std::uint64_t{m.hidden}; }

// Attention matrices with `q_heads` query and `kv_heads` key/value heads, and the layer's two norms.
std::uint64_t attention_parameters(const TransformerSpec& m, std::uint64_t q_heads, std::uint64_t kv_heads) {
  const std::uint64_t h = m.hidden;
  const std::uint64_t d = head_dim(m);
  return h * (q_heads + 2 * kv_heads) * d + q_heads * d * h + 2 * norm_parameters(m);
}

std::uint64_t expert_parameters(const TransformerSpec& m) {
  return std::uint64_t{m.hidden} * m.moe_ffn_hidden * mlp_matrices(m);
}

std::uint64_t vocabulary_rows(const TrainingLayout& l) {
  return (std::uint64_t{l.model().vocabulary} + l.tensor() - 1) / l.tensor();
}

}  // namespace

std::uint64_t total_parameters(const TransformerSpec& m) {
  const std::uint64_t h = m.hidden;
  const std::uint64_t attention = attention_parameters(m, m.heads, m.kv_heads);
  const std::uint64_t dense_mlp = h * m.ffn_hidden * mlp_matrices(m);
  const std::uint64_t moe_layers = m.experts == 0 ? 0 : m.layers - m.dense_layers;
  const std::uint64_t moe_mlp =
      m.experts == 0 ? 0 : h * m.experts + (std::uint64_t{m.experts} + m.shared_experts) * expert_parameters(m);
  std::uint64_t total =
      std::uint64_t{m.layers} * attention + (m.layers - moe_layers) * dense_mlp + moe_layers * moe_mlp;
  total += std::uint64_t{m.vocabulary} * h + norm_parameters(m);
  if (!m.tied_embeddings) total += std::uint64_t{m.vocabulary} * h;
  return total;
}

std::uint64_t active_matmul_parameters(const TransformerSpec& m) {
  const std::uint64_t h = m.hidden;
  const std::uint64_t attention = attention_parameters(m, m.heads, m.kv_heads) - 2 * norm_parameters(m);
  const std::uint64_t dense_mlp = h * m.ffn_hidden * mlp_matrices(m);
  const std::uint64_t moe_layers = m.experts == 0 ? 0 : m.layers - m.dense_layers;
  const std::uint64_t moe_mlp =
      m.experts == 0 ? 0 : h * m.experts + (std::uint64_t{m.top_k} + m.shared_experts) * expert_parameters(m);
  return std::uint64_t{m.layers} * attention + (m.layers - moe_layers) * dense_mlp + moe_layers * moe_mlp +
         std::uint64_t{m.vocabulary} * h;
}

ParameterCount local_layer_parameters(const TrainingLayout& l, std::uint32_t layer) {
  const TransformerSpec& m = l.model();
  const std::uint32_t t = l.tensor();
  const std::uint64_t kv = m.kv_heads >= t ? m.kv_heads / t : 1;  // replicated when TP > kv_heads
  ParameterCount p;
  p.dense = attention_parameters(m, m.heads / t, kv);
  if (!l.is_moe_layer(layer)) {
    p.dense += std::uint64_t{m.hidden} * m.ffn_hidden * mlp_matrices(m) / t;
    return p;
  }
  p.dense += std::uint64_t{m.hidden} * m.experts + std::uint64_t{m.shared_experts} * expert_parameters(m) / t;
  p.expert = std::uint64_t{m.experts / l.expert()} * expert_parameters(m) / t;
  return p;
}

std::uint64_t local_embedding_parameters(const TrainingLayout& l) { return vocabulary_rows(l) * l.model().hidden; }

std::uint64_t local_output_parameters(const TrainingLayout& l) {
  const bool shares_embedding = l.model().tied_embeddings && l.model_chunks() == 1;
  return norm_parameters(l.model()) + (shares_embedding ? 0 : vocabulary_rows(l) * l.model().hidden);
}

ParameterCount local_stage_parameters(const TrainingLayout& l, std::uint32_t stage) {
  ParameterCount p;
  for (std::uint32_t c = 0; c < l.virtual_stages(); ++c) {
    const std::uint32_t chunk = l.model_chunk(stage, c);
    const std::uint32_t first = l.chunk_first_layer(chunk);
    for (std::uint32_t layer = first; layer < first + l.chunk_layers(chunk); ++layer)
      p += local_layer_parameters(l, layer);
    if (chunk == 0) p.dense += local_embedding_parameters(l);
    if (chunk + 1 == l.model_chunks()) p.dense += local_output_parameters(l);
  }
  return p;
}

}  // namespace rackscale::models::workload
