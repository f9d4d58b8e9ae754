#include "models/workload/training_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace rackscale::models::workload {
namespace {

using accelerator::GroupKind;
using accelerator::Peer;

[[noreturn]] void reject(const std::string& key, const std::string& detail) {
  throw std::invalid_argument("workload." + key + ": " + detail);
}

void require_positive(std::uint64_t value, const char* key, const char* what) {
  if (value == 0) reject(key, fmt::format("expected at least 1 {}, found 0", what));
}

// Model checks that need no parallelism; resolves the model's defaults.
void check_model(TransformerSpec& m) {
  require_positive(m.layers, "model.layers", "layer");
  require_positive(m.hidden, "model.hidden", "unit");
  require_positive(m.heads, "model.heads", "head");
  require_positive(m.vocabulary, "model.vocabulary", "token");
  require_positive(m.sequence, "model.sequence", "token");
  if (m.kv_heads == 0) m.kv_heads = m.heads;
  if (m.ffn_hidden == 0) m.ffn_hidden = 4 * m.hidden;
  if (m.hidden % m.heads != 0)
    reject("model.hidden",
           fmt::format("{} is not divisible by the {} heads (the head dimension must be whole)", m.hidden, m.heads));
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    reject("model.kv_heads", fmt::format("{} heads are not divisible by {} kv_heads (each key/value head serves a "
                                         "whole number of query heads)",
                                         m.heads, m.kv_heads));
  if (m.experts == 0) return;
  if (m.moe_ffn_hidden == 0) m.moe_ffn_hidden = m.ffn_hidden;
  if (m.top_k == 0 || m.top_k > m.experts)
    reject("model.top_k", fmt::format("expected 1 to {} (the experts), found {}", m.experts, m.top_k));
  if (m.dense_layers > m.layers)
    reject("model.dense_layers", fmt::format("expected at most {} (the layers), found {}", m.layers, m.dense_layers));
  if (!(m.capacity_factor > 0))
    reject("model.capacity_factor", fmt::format("expected a number > 0, found {}", m.capacity_factor));
}

}  // namespace

TrainingLayout::TrainingLayout(const TrainingSpec& spec, std::uint64_t devices) : spec_(spec) {
  TransformerSpec& m = spec_.model;
  ParallelSpec& p = spec_.parallel;
  if (devices == 0) throw std::invalid_argument("cluster.nodes: a training job needs at least one device");
  if (devices > UINT32_MAX)
    throw std::invalid_argument(
        fmt::format("cluster.nodes: {} devices; at most {} are supported", devices, UINT32_MAX));
  devices_ = static_cast<std::uint32_t>(devices);
  check_model(m);
  require_positive(spec_.iterations, "iterations", "iteration");
  require_positive(p.tensor, "parallel.tensor", "device");
  require_positive(p.pipeline, "parallel.pipeline", "stage");
  require_positive(p.context, "parallel.context", "device");
  require_positive(p.expert, "parallel.expert", "device");
  require_positive(p.virtual_stages, "parallel.virtual_stages", "stage");
  require_positive(p.micro_batch, "parallel.micro_batch", "sequence");
  require_positive(p.global_batch, "parallel.global_batch", "sequence");
  require_positive(spec_.stack.zero3_streams, "stack.zero3_streams", "stream");
  if (spec_.stack.zero3_streams > 2)
    reject("stack.zero3_streams", fmt::format("expected 1 or 2, found {}", spec_.stack.zero3_streams));
  if (p.virtual_stages > 1 && !spec_.stack.interleaved_schedule)
    reject("parallel.virtual_stages", fmt::format("expected 1: stack {} has no interleaved schedule (its "
                                                  "interleaved_schedule is false), found {}",
                                                  spec_.stack.name, p.virtual_stages));
  if (p.zero_stage > 3) reject("parallel.zero_stage", fmt::format("expected 0 to 3, found {}", p.zero_stage));

  // The grid.
  const std::uint64_t tpc = std::uint64_t{p.tensor} * p.pipeline * p.context;
  if (devices % tpc != 0)
    reject("parallel.tensor", fmt::format("{} x pipeline {} x context {} = {} does not divide the {} devices", p.tensor,
                                          p.pipeline, p.context, tpc, devices));
  if (p.data == 0) {
    p.data = static_cast<std::uint32_t>(devices / tpc);
  } else if (tpc * p.data != devices) {
    reject("parallel.data", fmt::format("tensor {} x pipeline {} x context {} x data {} = {} devices, but the cluster "
                                        "has {} (leave data out to use them all)",
                                        p.tensor, p.pipeline, p.context, p.data, tpc * p.data, devices));
  }

  // Tensor parallelism splits heads, key/value heads (or replicates them), and the MLP.
  if (m.heads % p.tensor != 0)
    reject("model.heads", fmt::format("{} heads are not divisible by tensor {}", m.heads, p.tensor));
  if (m.kv_heads % p.tensor != 0 && p.tensor % m.kv_heads != 0)
    reject("model.kv_heads", fmt::format("{} kv_heads and tensor {}: one must divide the other (key/value heads are "
                                         "split over the TP group, or replicated when there are fewer)",
                                         m.kv_heads, p.tensor));
  if (m.ffn_hidden % p.tensor != 0)
    reject("model.ffn_hidden", fmt::format("{} is not divisible by tensor {}", m.ffn_hidden, p.tensor));
  if (m.experts > 0 && m.moe_ffn_hidden % p.tensor != 0)
    reject("model.moe_ffn_hidden", fmt::format("{} is not divisible by tensor {}", m.moe_ffn_hidden, p.tensor));
  if (p.sequence_parallel && p.tensor == 1)
    reject("parallel.sequence_parallel", "needs tensor > 1 (it shards what tensor parallelism replicates)");

  // Context parallelism: load-balanced ring attention cuts each sequence into 2 x context chunks.
  if (p.context > 1 && m.sequence % (2 * p.context) != 0)
    reject("model.sequence", fmt::format("{} tokens are not divisible by 2 x context {} = {} (load-balanced ring "
                                         "attention cuts each sequence into 2 x context chunks)",
                                         m.sequence, p.context, 2 * p.context));
  if (p.sequence_parallel && (m.sequence / p.context) % p.tensor != 0)
    reject("model.sequence", fmt::format("{} tokens / context {} = {} are not divisible by tensor {} (sequence "
                                         "parallelism splits them over the TP group)",
                                         m.sequence, p.context, m.sequence / p.context, p.tensor));

  // Pipeline.
  if (p.virtual_stages > 1 && p.pipeline == 1)
    reject("parallel.virtual_stages", "interleaving needs pipeline > 1");
  split_layers();

  // Batch.
  const std::uint64_t per_step = p.micro_batch * p.data;
  if (p.global_batch % per_step != 0)
    reject("parallel.global_batch", fmt::format("{} sequences are not divisible by micro_batch {} x data {} = {}",
                                                p.global_batch, p.micro_batch, p.data, per_step));
  micro_batches_ = p.global_batch / per_step;
  if (p.virtual_stages > 1 && micro_batches_ % p.pipeline != 0)
    reject("parallel.global_batch",
           fmt::format("the interleaved schedule needs the micro-batches per replica ({} = {} / (micro_batch {} x data "
                       "{})) to be a multiple of pipeline {}",
                       micro_batches_, p.global_batch, p.micro_batch, p.data, p.pipeline));

  // Experts.
  if (m.experts == 0 && p.expert > 1)
    reject("parallel.expert", "expert parallelism needs a mixture-of-experts model (workload.model.experts > 0)");
  const std::uint64_t dcp = std::uint64_t{p.data} * p.context;
  if (dcp % p.expert != 0)
    reject("parallel.expert",
           fmt::format("{} does not divide data {} x context {} = {}", p.expert, p.data, p.context, dcp));
  if (m.experts > 0 && m.experts % p.expert != 0)
    reject("model.experts", fmt::format("{} experts are not divisible by expert {}", m.experts, p.expert));
  if (m.experts > 0 && m.dense_layers < m.layers && p.tensor > 1 && !p.sequence_parallel)
    reject("parallel.sequence_parallel",
           "mixture-of-experts layers with tensor > 1 need sequence parallelism (as in Megatron-LM)");
}

void TrainingLayout::split_layers() {
  const ParallelSpec& p = spec_.parallel;
  const std::uint32_t layers = spec_.model.layers;
  const std::uint32_t P = p.pipeline;
  const std::uint32_t V = p.virtual_stages;
  const std::uint64_t K = std::uint64_t{P} * V;
  const bool given_first = p.first_stage_layers.has_value();
  const bool given_last = p.last_stage_layers.has_value();
  std::vector<std::uint32_t> counts(K, 0);
  std::string key;  // the key that set the split, for the empty-chunk error below

  if (!p.chunk_layers.empty()) {
    key = "parallel.chunk_layers";
    if (given_first || given_last)
      reject(key, fmt::format("give either chunk_layers or {}, not both",
                              given_first ? "first_stage_layers" : "last_stage_layers"));
    if (p.chunk_layers.size() != K)
      reject(key, fmt::format("expected pipeline {} x virtual_stages {} = {} entries (one per model chunk), found {}",
                              P, V, K, p.chunk_layers.size()));
    std::uint64_t sum = 0;
    for (const std::uint32_t n : p.chunk_layers) sum += n;
    if (sum != layers)
      reject(key, fmt::format("expected entries summing to the model's {} layers, found {}", layers, sum));
    counts = p.chunk_layers;
  } else if (given_first || given_last) {
    key = given_first ? "parallel.first_stage_layers" : "parallel.last_stage_layers";
    if (P == 1) reject(key, "uneven pipeline stages need pipeline > 1");
    const std::uint32_t first = p.first_stage_layers.value_or(0);
    const std::uint32_t last = p.last_stage_layers.value_or(0);
    const std::uint64_t fixed = std::uint64_t{first} + last;
    if (fixed > layers)
      reject(key, given_first && given_last
                      ? fmt::format("first_stage_layers {} + last_stage_layers {} = {} exceed the model's {} layers",
                                    first, last, fixed, layers)
                      : fmt::format("{} exceeds the model's {} layers", given_first ? first : last, layers));
    const std::uint32_t others = P - (given_first ? 1 : 0) - (given_last ? 1 : 0);
    const std::uint64_t rest = layers - fixed;
    if (others == 0 && rest != 0)
      reject(key, fmt::format("first_stage_layers {} + last_stage_layers {} = {}, expected the model's {} layers "
                              "(pipeline 2 has no other stages)",
                              first, last, fixed, layers));
    if (others > 0 && rest % (std::uint64_t{others} * V) != 0)
      reject(key, fmt::format("the {} other stage{} x virtual_stages {} = {} model chunks share the remaining layers "
                              "evenly: expected a multiple of {}, found {} of the {}",
                              others, others == 1 ? "" : "s", V, std::uint64_t{others} * V,
                              std::uint64_t{others} * V, rest, layers));
    const std::uint64_t per_chunk = others > 0 ? rest / (std::uint64_t{others} * V) : 0;
    for (std::uint32_t s = 0; s < P; ++s) {
      const bool is_first = s == 0 && given_first;
      const bool is_last = s + 1 == P && given_last;
      if (!is_first && !is_last) {
        for (std::uint32_t c = 0; c < V; ++c) counts[std::uint64_t{c} * P + s] = static_cast<std::uint32_t>(per_chunk);
        continue;
      }
      // As even as possible; the shortfall goes to the chunks nearest the embedding (first stage: its
      // earliest chunks) or the output layer (last stage: its latest).
      const std::uint32_t total = is_first ? first : last;
      const std::uint32_t base = total / V, extra = total % V;
      for (std::uint32_t c = 0; c < V; ++c) {
        const bool gets_extra = is_first ? c >= V - extra : c < extra;
        counts[std::uint64_t{c} * P + s] = base + (gets_extra ? 1 : 0);
      }
    }
  } else {
    if (layers % K != 0)
      reject("model.layers", fmt::format("{} layers are not divisible by pipeline {} x virtual_stages {} = {} (for "
                                         "uneven stages set parallel.first_stage_layers, last_stage_layers or "
                                         "chunk_layers)",
                                         layers, P, V, K));
    counts.assign(K, static_cast<std::uint32_t>(layers / K));
  }

  for (std::uint64_t k = 1; k + 1 < K; ++k)
    if (counts[k] == 0)
      reject(key, fmt::format("leaves model chunk {} (stage {}, virtual stage {}) with no layers; only the first "
                              "chunk (with the embedding) and the last (with the output layer) may have none",
                              k, k % P, k / P));
  chunk_first_.assign(K + 1, 0);
  for (std::uint64_t k = 0; k < K; ++k) chunk_first_[k + 1] = chunk_first_[k] + counts[k];
  even_stages_ = std::all_of(counts.begin(), counts.end(), [&](std::uint32_t n) { return n == counts.front(); });
}

std::uint32_t TrainingLayout::stage_layers(std::uint32_t stage) const {
  std::uint32_t n = 0;
  for (std::uint32_t c = 0; c < virtual_stages(); ++c) n += chunk_layers(model_chunk(stage, c));
  return n;
}

std::uint32_t TrainingLayout::group_size(GroupKind kind) const noexcept {
  switch (kind) {
    case GroupKind::tensor:
      return tensor();
    case GroupKind::context:
      return context();
    case GroupKind::data:
      return context() * data();
    case GroupKind::expert:
      return expert();
    case GroupKind::expert_data:
      return context() * data() / expert();
    case GroupKind::pipeline:
      return pipeline();
    case GroupKind::world:
      return devices_;
  }
  return 1;
}

Coordinates TrainingLayout::coordinates(std::uint32_t device) const {
  if (device >= devices_)
    throw std::out_of_range(fmt::format("device {} is outside the job's {} devices", device, devices_));
  Coordinates c;
  std::uint32_t rest = device;
  c.tensor = rest % tensor();
  rest /= tensor();
  c.context = rest % context();
  rest /= context();
  c.data = rest % data();
  c.pipeline = rest / data();
  const std::uint32_t r = c.context + context() * c.data;  // index in the DP x CP group
  c.expert = r % expert();
  c.expert_data = r / expert();
  return c;
}

std::uint32_t TrainingLayout::device_at(std::uint32_t tp, std::uint32_t cp, std::uint32_t dp, std::uint32_t pp) const {
  return tp + tensor() * (cp + context() * (dp + data() * pp));
}

std::vector<std::uint32_t> TrainingLayout::group(std::uint32_t device, GroupKind kind) const {
  const Coordinates c = coordinates(device);
  const std::uint32_t n = group_size(kind);
  std::vector<std::uint32_t> members;
  members.reserve(n);
  // A member of the DP x CP group of this device's (tp, pp), by its index r = cp + C x dp.
  const auto in_dcp = [&](std::uint32_t r) { return c.tensor + tensor() * (r + context() * data() * c.pipeline); };
  for (std::uint32_t i = 0; i < n; ++i) {
    switch (kind) {
      case GroupKind::tensor:
        members.push_back(device_at(i, c.context, c.data, c.pipeline));
        break;
      case GroupKind::context:
        members.push_back(device_at(c.tensor, i, c.data, c.pipeline));
        break;
      case GroupKind::data:
        members.push_back(in_dcp(i));
        break;
      case GroupKind::expert:
        members.push_back(in_dcp(c.expert_data * expert() + i));
        break;
      case GroupKind::expert_data:
        members.push_back(in_dcp(i * expert() + c.expert));
        break;
      case GroupKind::pipeline:
        members.push_back(device_at(c.tensor, c.context, c.data, i));
        break;
      case GroupKind::world:
        members.push_back(i);
        break;
    }
  }
  return members;
}

std::uint32_t TrainingLayout::rank_in_group(std::uint32_t device, GroupKind kind) const {
  const Coordinates c = coordinates(device);
  switch (kind) {
    case GroupKind::tensor:
      return c.tensor;
    case GroupKind::context:
      return c.context;
    case GroupKind::data:
      return c.context + context() * c.data;
    case GroupKind::expert:
      return c.expert;
    case GroupKind::expert_data:
      return c.expert_data;
    case GroupKind::pipeline:
      return c.pipeline;
    case GroupKind::world:
      return device;
  }
  return 0;
}

std::optional<std::uint32_t> TrainingLayout::peer(std::uint32_t device, Peer which) const {
  const Coordinates c = coordinates(device);
  if (which == Peer::next_context || which == Peer::previous_context) {
    const std::uint32_t n = context();
    if (n == 1) return std::nullopt;
    const std::uint32_t cp = which == Peer::next_context ? (c.context + 1) % n : (c.context + n - 1) % n;
    return device_at(c.tensor, cp, c.data, c.pipeline);
  }
  const std::uint32_t p = pipeline();
  if (p == 1) return std::nullopt;
  const bool interleaved = virtual_stages() > 1;
  if (which == Peer::next_stage) {
    if (c.pipeline + 1 == p && !interleaved) return std::nullopt;
    return device_at(c.tensor, c.context, c.data, (c.pipeline + 1) % p);
  }
  if (c.pipeline == 0 && !interleaved) return std::nullopt;
  return device_at(c.tensor, c.context, c.data, (c.pipeline + p - 1) % p);
}

}  // namespace rackscale::models::workload
