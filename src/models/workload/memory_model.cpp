#include "models/workload/memory_model.hpp"

#include <algorithm>
#include <cmath>

#include "models/workload/model_parameters.hpp"
#include "models/workload/parameter_tensors.hpp"
#include "models/workload/pipeline_schedule.hpp"

namespace rackscale::models::workload {
namespace {

using accelerator::GroupKind;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Bytes per token of the device's tokens, split by how tensor and sequence parallelism divide them.
struct PerToken {
  double replicated = 0;  // divided by T with sequence parallelism
  double sharded = 0;     // already per TP rank
  double gathered = 0;    // per TP rank, never divided (gathered over TP)
};

PerToken layer_per_token(const TrainingLayout& l, std::uint32_t layer, Recompute policy) {
  const TransformerSpec& m = l.model();
  const double t = l.tensor();
  const double h = m.hidden;
  const double d = static_cast<double>(m.hidden / m.heads);
  const double a_t = m.heads / t;
  const double g_t = m.kv_heads >= l.tensor() ? m.kv_heads / t : 1.0;
  const double gated = m.activation == Activation::swiglu ? 2.0 : 1.0;
  PerToken p;
  if (policy == Recompute::full) {
    p.replicated = 2 * h;  // the layer's input
    return p;
  }
  p.replicated = 10 * h;
  p.sharded = 2 * a_t * d + 4 * g_t * d + 2 * a_t * d;
  if (policy == Recompute::none)
    p.sharded += l.parallel().fused_attention ? 4 * a_t : 5 * a_t * static_cast<double>(m.sequence);
  if (!l.is_moe_layer(layer)) {
    const double f_t = m.ffn_hidden / t;
    p.sharded += 2 * gated * f_t + 2 * f_t;
    return p;
  }
  const double fe_t = m.moe_ffn_hidden / t;
  const double copies = m.top_k * m.capacity_factor;
  p.sharded += (copies + m.shared_experts) * (2 * gated * fe_t + 2 * fe_t);
  if (l.tensor() > 1) p.gathered = 2 * h * copies;
  return p;
}

double bytes_for(const TrainingLayout& l, const PerToken& p) {
  const double tokens = static_cast<double>(l.micro_batch_tokens());
  const double sp = l.parallel().sequence_parallel ? l.tensor() : 1.0;
  return tokens * (p.replicated / sp + p.sharded + p.gathered);
}

std::uint64_t whole(double bytes) { return static_cast<std::uint64_t>(std::ceil(bytes)); }

// Activations of one (chunk, micro-batch) of model chunk `chunk`.
std::uint64_t chunk_activation_bytes(const TrainingLayout& l, std::uint32_t chunk) {
  const Recompute policy = l.parallel().recompute;
  const std::uint32_t first = l.chunk_first_layer(chunk);
  std::uint64_t bytes = 0;
  for (std::uint32_t layer = first; layer < first + l.chunk_layers(chunk); ++layer)
    bytes += layer_activation_bytes(l, layer, policy);
  const double h = l.model().hidden;
  const double tokens = static_cast<double>(l.micro_batch_tokens());
  const double sp = l.parallel().sequence_parallel ? l.tensor() : 1.0;
  if (chunk == 0) bytes += whole(tokens * h / sp);  // the embedding's dropout mask
  if (chunk + 1 == l.model_chunks()) {
    const double vocab_t = std::ceil(static_cast<double>(l.model().vocabulary) / l.tensor());
    bytes += whole(tokens * (4 * h / sp + 4 * vocab_t));
  }
  return bytes;
}

// The largest number of bytes of activations held at once, walking the stage's schedule (through its
// in-flight counts: the schedule's steps after each forward, each distinct one once).
void in_flight_peak(const TrainingLayout& l, std::uint32_t stage, MemoryBreakdown& out) {
  const std::uint32_t V = l.virtual_stages();
  std::vector<std::uint64_t> per_chunk(V);
  for (std::uint32_t c = 0; c < V; ++c) per_chunk[c] = chunk_activation_bytes(l, l.model_chunk(stage, c));
  const InFlightCounts& in_flight = in_flight_counts(l.pipeline(), V, l.micro_batches(), stage);
  std::uint64_t peak = 0, peak_count = 0;
  for (std::size_t i = 0; i + V <= in_flight.counts.size(); i += V) {
    std::uint64_t held = 0, count = 0;
    for (std::uint32_t c = 0; c < V; ++c) {
      held += in_flight.counts[i + c] * per_chunk[c];
      count += in_flight.counts[i + c];
    }
    if (held > peak) {
      peak = held;
      peak_count = count;
    }
  }
  out.activations = peak;
  out.chunks_in_flight = peak_count;
}

}  // namespace

std::uint64_t ring_attention_buffer_bytes(const TrainingLayout& l) {
  const std::uint64_t C = l.context();
  if (C <= 1) return 0;
  const TransformerSpec& m = l.model();
  const std::uint64_t t = l.tensor();
  const std::uint64_t g_t = m.kv_heads >= t ? m.kv_heads / t : 1;  // as the compute costs replicate them
  const std::uint64_t block = std::uint64_t{l.parallel().micro_batch} * (m.sequence / C) * 2 * g_t * (m.hidden / m.heads) * 2;
  // All-gather CP: the backward holds every rank's keys and values and their gradients before the
  // reduce-scatter, 2C blocks. Ring: the backward's two messages of block and gradient partial outweigh
  // the forward's two blocks.
  if (l.parallel().context_algorithm == ContextAlgorithm::all_gather) return 2 * C * block;
  return std::min<std::uint64_t>(C - 1, 4) * block;
}

std::uint64_t layer_activation_bytes(const TrainingLayout& l, std::uint32_t layer, Recompute policy) {
  return whole(bytes_for(l, layer_per_token(l, layer, policy)));
}

MemoryBreakdown stage_memory(const TrainingLayout& l, std::uint32_t stage) {
  const ParallelSpec& p = l.parallel();
  MemoryBreakdown out;
  out.stage = stage;
  const ParameterCount params = local_stage_parameters(l, stage);
  out.parameters = params.total();

  // Model state, sharded by ZeRO.
  const std::uint64_t dense_shard = ceil_div(params.dense, l.group_size(GroupKind::data));
  const std::uint64_t expert_shard = ceil_div(params.expert, l.group_size(GroupKind::expert_data));
  const std::uint64_t shard = dense_shard + expert_shard;
  // ZeRO-3: the gathered buckets held at once (the one in use and those prefetched), and the unreduced
  // gradients of two reduce buckets (one being reduce-scattered, one filling), a unit each by default.
  std::uint64_t largest_unit = 0;
  for (std::uint32_t c = 0; c < l.virtual_stages(); ++c) {
    const std::uint32_t chunk = l.model_chunk(stage, c);
    const std::uint32_t first = l.chunk_first_layer(chunk);
    for (std::uint32_t layer = first; layer < first + l.chunk_layers(chunk); ++layer)
      largest_unit = std::max(largest_unit, local_layer_parameters(l, layer).total());
    if (chunk == 0) largest_unit = std::max(largest_unit, local_embedding_parameters(l));
    if (chunk + 1 == l.model_chunks()) largest_unit = std::max(largest_unit, local_output_parameters(l));
  }
  const StackSpec& stack = l.stack();
  const std::uint64_t whole_buffer = out.parameters * kGradientBytesPerParameter;
  out.weights = out.parameters * kWeightBytesPerParameter;
  out.gradients = (p.zero_stage >= 2 ? shard : out.parameters) * kGradientBytesPerParameter;
  if (p.zero_stage == 2) {
    const std::uint64_t bucket = stack.grad_bucket_bytes > 0 ? stack.grad_bucket_bytes : whole_buffer;
    out.gradients += std::min(2 * bucket, whole_buffer);
  }
  if (p.zero_stage == 3) {
    const std::uint64_t live = (std::uint64_t{zero3_prefetch_depth(l, stage)} + 1) *
                               largest_gather_elements(l, stage);
    out.weights = (shard + live) * kWeightBytesPerParameter;
    const std::uint64_t reduce_bucket = stack.zero3_reduce_elements > 0
                                            ? std::min(stack.zero3_reduce_elements, out.parameters)
                                            : largest_unit;
    out.gradients += 2 * reduce_bucket * kGradientBytesPerParameter;
  }
  out.optimizer_states = (p.zero_stage >= 1 ? shard : out.parameters) * kOptimizerBytesPerParameter;

  // Activations.
  in_flight_peak(l, stage, out);
  std::uint64_t largest_layer = 0;
  for (std::uint32_t c = 0; c < l.virtual_stages(); ++c) {
    const std::uint32_t chunk = l.model_chunk(stage, c);
    const std::uint32_t first = l.chunk_first_layer(chunk);
    for (std::uint32_t layer = first; layer < first + l.chunk_layers(chunk); ++layer)
      largest_layer = std::max(largest_layer, layer_activation_bytes(l, layer, Recompute::none));
  }
  out.layer_activations = largest_layer;
  // Full recomputation rebuilds one layer's activations at a time during the backward pass.
  if (p.recompute == Recompute::full) out.activations += largest_layer;

  // Communicators.
  std::uint64_t communicators = l.pipeline() > 1 ? 1 : 0;
  for (const GroupKind kind :
       {GroupKind::tensor, GroupKind::context, GroupKind::data, GroupKind::expert, GroupKind::expert_data})
    if (l.group_size(kind) > 1) ++communicators;
  // Without expert parallelism the expert-data group is the data group: one communicator, not two.
  if (l.expert() == 1 && l.group_size(GroupKind::data) > 1) --communicators;
  out.ring_attention_buffers = ring_attention_buffer_bytes(l);
  out.communication_buffers = communicators * kCommunicatorBufferBytes + out.ring_attention_buffers;
  return out;
}

std::vector<MemoryBreakdown> job_memory(const TrainingLayout& l) {
  std::vector<MemoryBreakdown> stages;
  stages.reserve(l.pipeline());
  for (std::uint32_t s = 0; s < l.pipeline(); ++s) stages.push_back(stage_memory(l, s));
  return stages;
}

}  // namespace rackscale::models::workload
