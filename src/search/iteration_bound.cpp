#include "search/iteration_bound.hpp"

#include <algorithm>

#include "models/accelerator/compute_model.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/workload/layer_costs.hpp"
#include "models/workload/model_parameters.hpp"

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

SimTime collective(const wl::TrainingLayout& l, const models::network::ClusterSpec& cluster, std::uint32_t device,
                   acc::CollectiveKind kind, acc::GroupKind group, std::uint64_t bytes) {
  if (l.group_size(group) <= 1 || bytes == 0) return 0;
  models::collectives::CollectiveCall call;
  call.kind = kind;
  call.algorithm = acc::Op{}.algorithm;  // as the programs issue them
  call.bytes = bytes;
  call.members = l.group(device, group);
  return models::collectives::time_closed_form(cluster, call).duration;
}

class Bounder {
 public:
  Bounder(const wl::TrainingLayout& layout, const models::network::ClusterSpec& cluster)
      : l_(layout), cluster_(cluster), c_(layout), sp_(layout.parallel().sequence_parallel),
        recompute_(layout.parallel().recompute) {}

  IterationBound run() {
    const std::uint32_t P = l_.pipeline(), V = l_.virtual_stages();
    std::vector<StageCollectives> collectives(P);
    for (std::uint32_t s = 0; s < P; ++s) collectives[s] = stage_collectives(l_.device_at(0, 0, 0, s));
    IterationBound bound;
    bound.compute.assign(P, 0);
    SimTime head = 0;  // micro-batch 0's forward through the first chunks of the stages before s
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
      stage.compute += time(c_.optimizer(optimized_parameters(s)));
      bound.compute[s] = stage.compute;
      bound.iteration = std::max(bound.iteration, head + stage.compute + stage.path);
      const Floor first = forward_step(l_.model_chunk(s, 0), t);
      head += first.compute + first.path + first.trailing;
    }
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
    t.tp_reduce = collective(l_, cluster_, device, sp_ ? K::reduce_scatter : K::all_reduce, G::tensor, activations);
    t.tp_gather = sp_ ? collective(l_, cluster_, device, K::all_gather, G::tensor, activations) : 0;
    if (l_.model().experts > 0) {
      // tensor() falls back to the activations' size for a zero byte count.
      const std::uint64_t gathered = c_.expert_gather_bytes() == 0 ? activations : c_.expert_gather_bytes();
      t.tp_expert_gather = collective(l_, cluster_, device, K::all_gather, G::tensor, gathered);
      t.tp_expert_scatter = collective(l_, cluster_, device, K::reduce_scatter, G::tensor, gathered);
      t.ep_all_to_all = collective(l_, cluster_, device, K::all_to_all, G::expert, c_.dispatch_bytes());
    }
    if (gathered_context()) {
      const std::uint64_t bytes = c_.kv_block_bytes() * l_.context();
      t.cp_gather = collective(l_, cluster_, device, K::all_gather, G::context, bytes);
      t.cp_scatter = collective(l_, cluster_, device, K::reduce_scatter, G::context, bytes);
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
    f.compute = 2 * time(c_.norm()) + time(c_.qkv()) + attention(false) + time(c_.projection());
    f.path = (sp_ ? t.tp_gather : 0) + t.cp_gather + t.tp_reduce;
    if (!moe) {
      f.compute += time(c_.mlp_in()) + time(c_.mlp_out());
      f.path += sp_ ? t.tp_gather : 0;
      f.trailing = t.tp_reduce;
    } else {
      f.compute += time(c_.router()) + time(c_.experts_in()) + time(c_.experts_out());
      f.path += t.ep_all_to_all + t.tp_expert_gather;
      f.trailing = t.tp_expert_scatter + t.ep_all_to_all;
    }
    return f;
  }

  [[nodiscard]] Floor layer_backward(bool moe, const StageCollectives& t) const {
    const auto back = [&](acc::ComputeCost c) { return time(wl::LayerCosts::backward(c)); };
    Floor f;
    if (recompute_ == wl::Recompute::full) {
      const Floor again = layer_forward(moe, t);
      f.compute += again.compute;
      f.path += again.path;  // its trailing collectives: the recomputed output is not used
    } else if (recompute_ == wl::Recompute::selective) {
      f.compute += attention(false);
    }
    f.compute += 2 * back(c_.norm()) + back(c_.projection()) + attention(true) + back(c_.qkv());
    f.path += (sp_ ? t.tp_gather : 0) + t.cp_gather + t.cp_scatter + t.tp_reduce;
    if (!moe) {
      f.compute += back(c_.mlp_out()) + back(c_.mlp_in());
      f.path += (sp_ ? t.tp_gather : 0) + t.tp_reduce;
    } else {
      f.compute += back(c_.experts_out()) + back(c_.experts_in()) + back(c_.router());
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
      f.compute += time(c_.embedding());
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
      f.compute += time(c_.norm()) + time(c_.logits()) + time(c_.cross_entropy());
      f.path += last_trailing + (sp_ ? t.tp_gather : 0);
    } else {
      f.trailing = last_trailing;
    }
    return f;
  }

  [[nodiscard]] Floor backward_step(std::uint32_t chunk, const StageCollectives& t) const {
    const auto back = [&](acc::ComputeCost c) { return time(wl::LayerCosts::backward(c)); };
    Floor f;
    if (chunk + 1 == l_.model_chunks()) {
      f.compute += back(c_.cross_entropy()) + back(c_.logits()) + back(c_.norm());
      f.path += t.tp_reduce;
    }
    const std::uint32_t moe = moe_layers(chunk), dense = l_.chunk_layers(chunk) - moe;
    const Floor d = layer_backward(false, t), e = layer_backward(true, t);
    f.compute += dense * d.compute + moe * e.compute;
    f.path += dense * d.path + moe * e.path;
    if (chunk == 0) {
      f.compute += back(c_.embedding());
      f.path += sp_ ? t.tp_gather : 0;
    }
    return f;
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
  const wl::LayerCosts c_;
  bool sp_;
  wl::Recompute recompute_;
};

}  // namespace

IterationBound bound_iteration(const wl::TrainingLayout& layout, const models::network::ClusterSpec& cluster) {
  return Bounder(layout, cluster).run();
}

}  // namespace rackscale::search
