#include "models/workload/training_layout.hpp"

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
  require_positive(p.bucket_bytes, "parallel.bucket_size", "byte");
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
  if (m.layers % (std::uint64_t{p.pipeline} * p.virtual_stages) != 0)
    reject("model.layers", fmt::format("{} layers are not divisible by pipeline {} x virtual_stages {} = {}", m.layers,
                                       p.pipeline, p.virtual_stages, std::uint64_t{p.pipeline} * p.virtual_stages));

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
