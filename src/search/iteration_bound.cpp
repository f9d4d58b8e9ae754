#include "search/iteration_bound.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "models/accelerator/compute_model.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/workload/layer_costs.hpp"
#include "models/workload/model_parameters.hpp"
#include "models/workload/parameter_tensors.hpp"

namespace rackscale::search {

namespace acc = models::accelerator;
namespace wl = models::workload;
using pdes::SimTime;

namespace {

// Time of compute ops and of collectives that the next compute op waits for ("path"), and of those after
// a step's last compute op ("trailing": waited for by the send of the step's output, not by the stage's
// next compute op).
struct Floor {
  SimTime compute = 0, path = 0, trailing = 0;
  Floor& operator+=(const Floor& o) {
    compute += o.compute;
    path += o.path;
    trailing += o.trailing;
    return *this;
  }
};

// Closed-form times of one stage's on-path collectives (0 where the group has one member).
struct StageCollectives {
  SimTime tp_reduce = 0, tp_gather = 0;            // activations: all-reduce (or SP reduce-scatter), SP all-gather
  SimTime tp_expert_gather = 0, tp_expert_scatter = 0;
  SimTime ep_all_to_all = 0;
  SimTime cp_gather = 0, cp_scatter = 0;           // all-gather context parallelism
};

class Bounder {
 public:
  Bounder(const wl::TrainingLayout& layout, CollectiveTimes& times)
      : l_(layout), cluster_(times.cluster()), times_(times), c_(layout), sp_(layout.parallel().sequence_parallel),
        recompute_(layout.parallel().recompute) {
    // The compute ops' times depend on the layout only, not on the stage: once per layout.
    const auto back = [&](acc::ComputeCost c) { return time(wl::LayerCosts::backward(c)); };
    attention_forward_ = attention(false);
    attention_backward_ = attention(true);
    const SimTime block = 2 * time(c_.norm()) + time(c_.qkv()) + attention_forward_ + time(c_.projection());
    dense_forward_ = block + time(c_.mlp_in()) + time(c_.mlp_out());
    const bool moe = layout.model().experts > 0;  // LayerCosts' expert ops exist only then
    if (moe) moe_forward_ = block + time(c_.router()) + time(c_.experts_in()) + time(c_.experts_out());
    const SimTime block_back = 2 * back(c_.norm()) + back(c_.projection()) + attention_backward_ + back(c_.qkv());
    dense_backward_ = block_back + back(c_.mlp_out()) + back(c_.mlp_in());
    if (moe) moe_backward_ = block_back + back(c_.experts_out()) + back(c_.experts_in()) + back(c_.router());
    embedding_forward_ = time(c_.embedding());
    embedding_backward_ = back(c_.embedding());
    output_forward_ = time(c_.norm()) + time(c_.logits()) + time(c_.cross_entropy());
    output_backward_ = back(c_.cross_entropy()) + back(c_.logits()) + back(c_.norm());
  }

  IterationBound run() {
    const std::uint32_t P = l_.pipeline(), V = l_.virtual_stages();
    std::vector<StageCollectives> collectives(P);
    for (std::uint32_t s = 0; s < P; ++s) collectives[s] = stage_collectives(l_.device_at(0, 0, 0, s));
    IterationBound bound;
    bound.compute.assign(P, 0);
    SimTime head = 0;  // micro-batch 0's forward through the first chunks of the stages before s
    SimTime last_stage = 0;  // the last stage's start, compute and path but its optimizer
    SimTime drain = 0;       // the last micro-batch's backward through the first chunks of the stages before it
    SimTime first_stage_end = 0;  // the first stage's optimizer and the parameter gathers after it
    for (std::uint32_t s = 0; s < P; ++s) {
      const StageCollectives& t = collectives[s];
      Floor stage;
      for (std::uint32_t v = 0; v < V; ++v) {
        const std::uint32_t chunk = l_.model_chunk(s, v);
        Floor step = forward_step(chunk, t);
        step.trailing = 0;  // the stage's next compute op is another step's
        stage += step;
        stage += backward_step(chunk, t);
      }
      const auto m = static_cast<SimTime>(l_.micro_batches());
      stage.compute *= m;
      stage.path *= m;
      const SimTime optimizer = time(c_.optimizer(optimized_parameters(s)));
      stage.compute += optimizer;
      bound.compute[s] = stage.compute;
      const StreamFloors streams = stream_floors(s);
      bound.data_stream.push_back(streams.data);
      bound.gather_stream.push_back(streams.gathers);
      // The ZeRO 1-2 parameter gathers wait for the optimizer, the stage's last compute op.
      bound.iteration = std::max({bound.iteration, head + stage.compute + stage.path + streams.after_optimizer,
                                  streams.data, streams.gathers});
      if (s + 1 == P) last_stage = head + stage.compute - optimizer + stage.path;
      if (s == 0) first_stage_end = optimizer + streams.after_optimizer;
      if (s + 1 < P) {
        const Floor back = backward_step(l_.model_chunk(s, 0), t);
        drain += back.compute + back.path;
      }
      const Floor first = forward_step(l_.model_chunk(s, 0), t);
      head += first.compute + first.path + first.trailing;
    }
    // The pipeline's drain: the last stage's last backward step is the last micro-batch's on its first
    // chunk; then that micro-batch's backward goes through the first chunks of every stage before it, and
    // the first stage ends with its optimizer.
    if (P > 1) bound.iteration = std::max(bound.iteration, last_stage + drain + first_stage_end);
    bound.least_compute = *std::min_element(bound.compute.begin(), bound.compute.end());
    return bound;
  }

 private:
  [[nodiscard]] SimTime time(const acc::ComputeCost& cost) const { return acc::compute_time(cluster_.accelerator, cost); }

  StageCollectives stage_collectives(std::uint32_t device) const {
    using K = acc::CollectiveKind;
    using G = acc::GroupKind;
    StageCollectives t;
    const std::uint64_t activations = c_.activation_bytes();
    t.tp_reduce = times_.time(l_, device, sp_ ? K::reduce_scatter : K::all_reduce, G::tensor, activations);
    t.tp_gather = sp_ ? times_.time(l_, device, K::all_gather, G::tensor, activations) : 0;
    if (l_.model().experts > 0) {
      // tensor() falls back to the activations' size for a zero byte count.
      const std::uint64_t gathered = c_.expert_gather_bytes() == 0 ? activations : c_.expert_gather_bytes();
      t.tp_expert_gather = times_.time(l_, device, K::all_gather, G::tensor, gathered);
      t.tp_expert_scatter = times_.time(l_, device, K::reduce_scatter, G::tensor, gathered);
      t.ep_all_to_all = times_.time(l_, device, K::all_to_all, G::expert, c_.dispatch_bytes());
    }
    if (gathered_context()) {
      const std::uint64_t bytes = c_.kv_block_bytes() * l_.context();
      t.cp_gather = times_.time(l_, device, K::all_gather, G::context, bytes);
      t.cp_scatter = times_.time(l_, device, K::reduce_scatter, G::context, bytes);
    }
    return t;
  }

  [[nodiscard]] bool gathered_context() const {
    return l_.context() > 1 && l_.parallel().context_algorithm == wl::ContextAlgorithm::all_gather;
  }

  // The attention kernels' forward (or its backward) of one layer and micro-batch, as the programs split
  // it: one kernel, or one per ring step.
  [[nodiscard]] SimTime attention(bool backward) const {
    const auto one = [&](acc::ComputeCost forward) { return time(backward ? c_.attention_backward(forward) : forward); };
    if (l_.context() == 1) return one(c_.attention(c_.sequence(), c_.causal_share()));
    if (gathered_context()) return one(c_.attention(c_.sequence(), c_.context_gather_share()));
    SimTime total = 0;
    for (std::uint32_t j = 0; j < l_.context(); ++j) total += one(c_.attention(c_.query_tokens(), c_.ring_step_share(j)));
    return total;
  }

  [[nodiscard]] Floor layer_forward(bool moe, const StageCollectives& t) const {
    Floor f;
    f.compute = moe ? moe_forward_ : dense_forward_;
    f.path = (sp_ ? t.tp_gather : 0) + t.cp_gather + t.tp_reduce;
    if (!moe) {
      f.path += sp_ ? t.tp_gather : 0;
      f.trailing = t.tp_reduce;
    } else {
      f.path += t.ep_all_to_all + t.tp_expert_gather;
      f.trailing = t.tp_expert_scatter + t.ep_all_to_all;
    }
    return f;
  }

  [[nodiscard]] Floor layer_backward(bool moe, const StageCollectives& t) const {
    Floor f;
    if (recompute_ == wl::Recompute::full) {
      const Floor again = layer_forward(moe, t);
      f.compute += again.compute;
      f.path += again.path;  // its trailing collectives: the recomputed output is not used
    } else if (recompute_ == wl::Recompute::selective) {
      f.compute += attention_forward_;
    }
    f.compute += moe ? moe_backward_ : dense_backward_;
    f.path += (sp_ ? t.tp_gather : 0) + t.cp_gather + t.cp_scatter + t.tp_reduce;
    if (!moe) {
      f.path += (sp_ ? t.tp_gather : 0) + t.tp_reduce;
    } else {
      f.path += 2 * t.ep_all_to_all + t.tp_expert_gather + t.tp_expert_scatter;
    }
    return f;
  }

  [[nodiscard]] std::uint32_t moe_layers(std::uint32_t chunk) const {
    std::uint32_t n = 0;
    const std::uint32_t first = l_.chunk_first_layer(chunk);
    for (std::uint32_t i = first; i < first + l_.chunk_layers(chunk); ++i) if (l_.is_moe_layer(i)) ++n;
    return n;
  }

  // One micro-batch's forward step of `chunk`: [embedding], its layers, [output layer]. `trailing` holds
  // the last layer's trailing collectives unless the output layer follows (and waits for them).
  [[nodiscard]] Floor forward_step(std::uint32_t chunk, const StageCollectives& t) const {
    Floor f;
    if (chunk == 0) {
      f.compute += embedding_forward_;
      f.path += t.tp_reduce;
    }
    const std::uint32_t moe = moe_layers(chunk), dense = l_.chunk_layers(chunk) - moe;
    const Floor d = layer_forward(false, t), e = layer_forward(true, t);
    f.compute += dense * d.compute + moe * e.compute;
    f.path += dense * (d.path + d.trailing) + moe * (e.path + e.trailing);
    // The chunk's last layer is MoE where there is any (MoE layers come after the dense ones).
    const SimTime last_trailing = moe > 0 ? e.trailing : d.trailing;
    f.path -= last_trailing;
    if (chunk + 1 == l_.model_chunks()) {
      f.compute += output_forward_;
      f.path += last_trailing + (sp_ ? t.tp_gather : 0);
    } else {
      f.trailing = last_trailing;
    }
    return f;
  }

  [[nodiscard]] Floor backward_step(std::uint32_t chunk, const StageCollectives& t) const {
    Floor f;
    if (chunk + 1 == l_.model_chunks()) {
      f.compute += output_backward_;
      f.path += t.tp_reduce;
    }
    const std::uint32_t moe = moe_layers(chunk), dense = l_.chunk_layers(chunk) - moe;
    const Floor d = layer_backward(false, t), e = layer_backward(true, t);
    f.compute += dense * d.compute + moe * e.compute;
    f.path += dense * d.path + moe * e.path;
    if (chunk == 0) {
      f.compute += embedding_backward_;
      f.path += sp_ ? t.tp_gather : 0;
    }
    return f;
  }

  // --- data parallelism: each stream runs one op at a time, so a stage lasts at least the sum of the ops of
  // its data stream, and of its parameter-gather stream; the buckets as training_plan.cpp cuts them.

  SimTime timed(std::uint32_t device, acc::CollectiveKind kind, acc::GroupKind group, std::uint64_t bytes) {
    return times_.time(l_, device, kind, group, bytes);
  }

  // `bytes` reduced in buckets of `size` (0: one), each a collective of `kind` over `group`.
  SimTime in_buckets(std::uint32_t device, acc::CollectiveKind kind, acc::GroupKind group, std::uint64_t bytes,
                     std::uint64_t size) {
    if (bytes == 0 || l_.group_size(group) <= 1) return 0;
    if (size == 0 || size >= bytes) return timed(device, kind, group, bytes);
    const std::uint64_t full = bytes / size, rest = bytes % size;
    return static_cast<SimTime>(full) * timed(device, kind, group, size) +
           (rest > 0 ? timed(device, kind, group, rest) : 0);
  }

  [[nodiscard]] std::vector<wl::ParameterCount> unit_parameters(std::uint32_t chunk) const {
    std::vector<wl::ParameterCount> units;
    if (chunk == 0) units.push_back({wl::local_embedding_parameters(l_), 0});
    const std::uint32_t first = l_.chunk_first_layer(chunk);
    for (std::uint32_t i = first; i < first + l_.chunk_layers(chunk); ++i) units.push_back(wl::local_layer_parameters(l_, i));
    if (chunk + 1 == l_.model_chunks()) units.push_back({wl::local_output_parameters(l_), 0});
    return units;
  }

  [[nodiscard]] std::vector<std::vector<wl::ParameterTensor>> unit_tensors(std::uint32_t chunk) const {
    std::vector<std::vector<wl::ParameterTensor>> units;
    if (chunk == 0) units.push_back(wl::embedding_tensors(l_));
    const std::uint32_t first = l_.chunk_first_layer(chunk);
    for (std::uint32_t i = first; i < first + l_.chunk_layers(chunk); ++i) units.push_back(wl::layer_tensors(l_, i));
    if (chunk + 1 == l_.model_chunks()) units.push_back(wl::output_tensors(l_));
    return units;
  }

  struct StreamFloors {
    SimTime data = 0, gathers = 0;  // the sums of the data stream's and the parameter-gather stream's ops
    SimTime after_optimizer = 0;    // of which the ZeRO 1-2 parameter all-gathers, issued after the optimizer
  };
  StreamFloors stream_floors(std::uint32_t stage) {
    using K = acc::CollectiveKind;
    using G = acc::GroupKind;
    const std::uint32_t device = l_.device_at(0, 0, 0, stage);
    const auto& stack = l_.stack();
    const std::uint32_t zero = l_.parallel().zero_stage;
    const auto m = static_cast<SimTime>(l_.micro_batches());
    SimTime data = 0, gathers = 0;
    if (zero < 3) {
      const K reduction = zero == 0 ? K::all_reduce : K::reduce_scatter;
      const bool per_chunk = zero == 2 || stack.overlap_grad_reduce;
      std::uint64_t stage_dense = 0, stage_expert = 0;
      for (std::uint32_t v = 0; v < l_.virtual_stages(); ++v) {
        std::uint64_t dense = 0, expert = 0;
        for (const auto& p : unit_parameters(l_.model_chunk(stage, v))) {
          dense += p.dense * 2;
          expert += p.expert * 2;
        }
        stage_dense += dense;
        stage_expert += expert;
        if (!per_chunk) continue;
        const SimTime chunk = in_buckets(device, reduction, G::data, dense, stack.grad_bucket_bytes) +
                              in_buckets(device, reduction, G::expert_data, expert, stack.grad_bucket_bytes);
        data += zero == 2 ? m * chunk : chunk;  // ZeRO 2 reduces in every micro-batch
      }
      if (!per_chunk)
        data += in_buckets(device, reduction, G::data, stage_dense, stack.grad_bucket_bytes) +
                in_buckets(device, reduction, G::expert_data, stage_expert, stack.grad_bucket_bytes);
      SimTime after = 0;
      if (zero == 1 || zero == 2)  // the updated parameters back to every replica (buckets of 0: all at once)
        after = in_buckets(device, K::all_gather, G::data, stage_dense, stack.grad_bucket_bytes) +
                in_buckets(device, K::all_gather, G::expert_data, stage_expert, stack.grad_bucket_bytes);
      return {data + after, 0, after};
    }
    // ZeRO 3: each unit's parameters gathered before its forward and its backward, and its gradients
    // reduce-scattered after its backward (per unit, or in buckets across the chunk's units), in every
    // micro-batch; the reductions share the gathers' stream with one process group.
    const std::uint64_t size = stack.zero3_reduce_elements * 2;
    SimTime reductions = 0;
    for (std::uint32_t v = 0; v < l_.virtual_stages(); ++v) {
      const std::uint32_t chunk = l_.model_chunk(stage, v);
      for (const auto& tensors : unit_tensors(chunk))
        for (const auto& b : wl::gather_buckets(tensors, stack.zero3_gather_elements))
          gathers += 2 * timed(device, K::all_gather, b.expert ? G::expert_data : G::data, b.elements * 2);
      if (size == 0) {
        for (const auto& p : unit_parameters(chunk))
          reductions += in_buckets(device, K::reduce_scatter, G::data, p.dense * 2, 0) +
                        in_buckets(device, K::reduce_scatter, G::expert_data, p.expert * 2, 0);
      } else {
        std::uint64_t dense = 0, expert = 0;
        for (const auto& p : unit_parameters(chunk)) {
          dense += p.dense * 2;
          expert += p.expert * 2;
        }
        reductions += in_buckets(device, K::reduce_scatter, G::data, dense, size) +
                      in_buckets(device, K::reduce_scatter, G::expert_data, expert, size);
      }
    }
    gathers *= m;
    reductions *= m;
    if (stack.zero3_streams == 1) return {0, gathers + reductions, 0};
    return {reductions, gathers, 0};
  }

  // Parameters the stage's optimizer updates: its own, or with ZeRO its shard of them.
  [[nodiscard]] std::uint64_t optimized_parameters(std::uint32_t stage) const {
    const wl::ParameterCount p = wl::local_stage_parameters(l_, stage);
    if (l_.parallel().zero_stage == 0) return p.total();
    const auto shard = [](std::uint64_t n, std::uint32_t over) { return (n + over - 1) / over; };
    return shard(p.dense, l_.group_size(acc::GroupKind::data)) +
           shard(p.expert, l_.group_size(acc::GroupKind::expert_data));
  }

  const wl::TrainingLayout& l_;
  const models::network::ClusterSpec& cluster_;
  CollectiveTimes& times_;
  const wl::LayerCosts c_;
  bool sp_;
  wl::Recompute recompute_;
  SimTime attention_forward_ = 0, attention_backward_ = 0;
  SimTime dense_forward_ = 0, moe_forward_ = 0, dense_backward_ = 0, moe_backward_ = 0;
  SimTime embedding_forward_ = 0, embedding_backward_ = 0, output_forward_ = 0, output_backward_ = 0;
};

}  // namespace

SimTime CollectiveTimes::time(const wl::TrainingLayout& l, std::uint32_t device, acc::CollectiveKind kind,
                              acc::GroupKind group, std::uint64_t bytes) {
  if (l.group_size(group) <= 1 || bytes == 0) return 0;
  // Bounded: past this many the cache starts over (a 405B space's pruning keeps far fewer).
  constexpr std::size_t kMaxTimes = 1 << 20;
  const Key key{l.tensor(), l.context(), l.data(), l.pipeline(), l.expert(), device, group, kind, bytes};
  if (const auto it = times_.find(key); it != times_.end()) return it->second;
  models::collectives::CollectiveCall call;
  call.kind = kind;
  call.algorithm = acc::Op{}.algorithm;  // as the programs issue them
  call.bytes = bytes;
  call.members = l.group(device, group);
  const SimTime t = models::collectives::time_closed_form(cluster_, call).duration;
  if (times_.size() >= kMaxTimes) times_.clear();
  times_.emplace(key, t);
  return t;
}

IterationBound bound_iteration(const wl::TrainingLayout& layout, const models::network::ClusterSpec& cluster) {
  CollectiveTimes times(cluster);
  return bound_iteration(layout, times);
}

IterationBound bound_iteration(const wl::TrainingLayout& layout, CollectiveTimes& times) {
  return Bounder(layout, times).run();
}

}  // namespace rackscale::search
