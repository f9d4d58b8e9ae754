#include "models/workload/training_plan.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "models/workload/layer_costs.hpp"
#include "models/workload/model_parameters.hpp"
#include "models/workload/parameter_tensors.hpp"
#include "models/workload/pipeline_schedule.hpp"

namespace rackscale::models::workload {
namespace {

using accelerator::CollectiveKind;
using accelerator::ComputeCost;
using accelerator::GroupKind;
using accelerator::Op;
using accelerator::OpIndex;
using accelerator::OpKind;
using accelerator::Peer;
using accelerator::Phase;
using accelerator::Program;

// Match ids of one iteration's pipeline transfers: 2 per micro-batch and model chunk.
std::uint64_t pipeline_matches(const TrainingLayout& l) { return 2 * l.micro_batches() * l.model_chunks(); }

// Ring attention's, after them: C + 1 message slots per ring (forward, recomputation, backward), layer and
// micro-batch.
constexpr std::uint64_t kRings = 3;
std::uint64_t ring_matches(const TrainingLayout& l) {
  if (l.context() == 1) return 0;
  return l.micro_batches() * l.model().layers * kRings * (std::uint64_t{l.context()} + 1);
}

// Builds one stage's program, op by op in the order the stage issues them.
class StageBuilder {
 public:
  StageBuilder(const TrainingLayout& layout, const LayerCosts& costs, std::uint32_t stage)
      : l_(layout), c_(costs), stage_(stage), sp_(layout.parallel().sequence_parallel),
        recompute_(layout.parallel().recompute), zero_(layout.parallel().zero_stage) {
    program_.role = fmt::format("stage {} of {}", stage, layout.pipeline());
    if (zero_ == 3) prefetch_ = zero3_prefetch_depth(layout, stage);
  }

  Program build() {
    const auto steps = pipeline_schedule(l_.pipeline(), l_.virtual_stages(), l_.micro_batches(), stage_);
    for (const auto& step : steps) {
      mb_ = step.micro_batch;
      const std::uint32_t chunk = l_.model_chunk(stage_, step.virtual_stage);
      if (step.forward)
        forward_step(chunk);
      else
        backward_step(chunk);
    }
    finish();
    return std::move(program_);
  }

 private:
  // --- op helpers --------------------------------------------------------------------------------

  OpIndex compute(ComputeCost cost, Phase phase, std::string_view label) {
    Op op;
    op.kind = OpKind::compute;
    op.stream = kComputeStream;
    op.phase = phase;
    op.cost = cost;
    op.layer = layer_;
    op.micro_batch = mb_;
    op.label = label;
    const OpIndex i = program_.add(op, pending_);
    pending_.clear();
    last_compute_ = i;
    return i;
  }

  OpIndex communicate(CollectiveKind kind, GroupKind group, std::uint64_t bytes, std::uint8_t stream, Phase phase,
                      std::string_view label, const std::vector<OpIndex>& deps) {
    Op op;
    op.kind = OpKind::collective;
    op.stream = stream;
    op.phase = phase;
    op.collective = kind;
    op.group = group;
    op.bytes = bytes;
    op.layer = layer_;
    op.micro_batch = mb_;
    op.label = label;
    return program_.add(op, deps);
  }

  std::vector<OpIndex> after_last_compute() const {
    return last_compute_ ? std::vector<OpIndex>{*last_compute_} : std::vector<OpIndex>{};
  }

  // A collective on the critical path: after the op(s) before it, and before the next compute op.
  void on_path(CollectiveKind kind, GroupKind group, std::uint64_t bytes, std::uint8_t stream, Phase phase,
               std::string_view label) {
    if (l_.group_size(group) <= 1 || bytes == 0) return;
    // After the compute op that produced its input and whatever that input also waited for (a receive,
    // the collective before it).
    std::vector<OpIndex> deps = pending_;
    if (last_compute_) deps.push_back(*last_compute_);
    pending_ = {communicate(kind, group, bytes, stream, phase, label, deps)};
  }

  void tensor(CollectiveKind kind, Phase phase, std::string_view label, std::uint64_t bytes = 0) {
    on_path(kind, GroupKind::tensor, bytes == 0 ? c_.activation_bytes() : bytes, kTensorStream, phase, label);
  }
  // Without SP the forward TP collective after a block is an all-reduce; with SP a reduce-scatter.
  void tensor_reduce(Phase phase) {
    if (sp_)
      tensor(CollectiveKind::reduce_scatter, phase, "tp reduce-scatter");
    else
      tensor(CollectiveKind::all_reduce, phase, "tp all-reduce");
  }

  void p2p(OpKind kind, Peer peer, std::uint64_t match, Phase phase, std::string_view label) {
    Op op;
    op.kind = kind;
    // Blocking transfers run in the compute stream's order: nothing computes while they run.
    if (l_.stack().pipeline_transfers == PipelineTransfers::blocking)
      op.stream = kComputeStream;
    else
      op.stream = kind == OpKind::send ? kSendStream : kRecvStream;
    op.phase = phase;
    op.peer = peer;
    op.bytes = c_.pipeline_bytes();
    op.match = static_cast<std::uint32_t>(match);
    op.layer = kNoLayer;
    op.micro_batch = mb_;
    op.label = label;
    if (kind == OpKind::send) {
      // What leaves the chunk: the last compute op's output, or the collective that finished it (the TP
      // reduce-scatter of the last layer's MLP). Nothing else waits for that collective.
      std::vector<OpIndex> deps = pending_;
      if (last_compute_) deps.push_back(*last_compute_);
      program_.add(op, deps);
      pending_.clear();
    } else {
      pending_.push_back(program_.add(op));
    }
  }

  [[nodiscard]] std::uint64_t match(std::uint32_t chunk, bool gradient) const {
    return 2 * (std::uint64_t{mb_} * l_.model_chunks() + chunk) + (gradient ? 1 : 0);
  }

  // --- ring attention (context parallelism) --------------------------------------------------------

  enum class Ring : std::uint32_t { forward = 0, recompute = 1, backward = 2 };

  // The match id of message `step` of this layer and micro-batch's `ring`.
  [[nodiscard]] std::uint64_t ring_match(Ring ring, std::uint32_t step) const {
    const std::uint64_t slot =
        (std::uint64_t{mb_} * l_.model().layers + layer_) * kRings + static_cast<std::uint32_t>(ring);
    return pipeline_matches(l_) + slot * (std::uint64_t{l_.context()} + 1) + step;
  }

  // One message round the CP ring: the send to the next rank after `deps`, and the matching receive from
  // the previous rank (every rank runs the same step at once). Returns the receive.
  OpIndex ring_transfer(std::uint64_t bytes, std::uint64_t id, Phase phase, std::string_view send_label,
                        std::string_view recv_label, const std::vector<OpIndex>& deps) {
    Op op;
    op.kind = OpKind::send;
    op.stream = kContextSendStream;
    op.phase = phase;
    op.peer = Peer::next_context;
    op.bytes = bytes;
    op.match = static_cast<std::uint32_t>(id);
    op.layer = layer_;
    op.micro_batch = mb_;
    op.label = send_label;
    program_.add(op, deps);
    op.kind = OpKind::recv;
    op.stream = kContextRecvStream;
    op.peer = Peer::previous_context;
    op.label = recv_label;
    return program_.add(op);
  }

  // Ring attention's forward (phase forward or recompute), after the op that produced this device's keys
  // and values (the last compute op). Leaves the last step as the last compute op.
  void ring_attention_forward(Phase phase) {
    const std::uint32_t C = l_.context();
    const Ring ring = phase == Phase::recompute ? Ring::recompute : Ring::forward;
    const std::vector<OpIndex> own_block = after_last_compute();
    std::optional<OpIndex> in_hand;  // the receive that brought the block of this step (none: own block)
    for (std::uint32_t j = 0; j < C; ++j) {
      std::optional<OpIndex> next;
      if (j + 1 < C)
        next = ring_transfer(c_.kv_block_bytes(), ring_match(ring, j), phase, "cp send kv", "cp recv kv",
                             in_hand ? std::vector<OpIndex>{*in_hand} : own_block);
      if (in_hand) pending_.push_back(*in_hand);
      compute(c_.attention(c_.query_tokens(), c_.ring_step_share(j)), phase, "attention");
      in_hand = next;
    }
  }

  // Ring attention's backward, after the op before it (the projection's backward or the recomputed
  // attention). Leaves the returning gradient of this device's block in pending_ for the QKV backward.
  void ring_attention_backward() {
    constexpr Phase B = Phase::backward;
    const std::uint32_t C = l_.context();
    const std::uint64_t block = c_.kv_block_bytes();
    std::vector<OpIndex> deps = after_last_compute();
    std::optional<OpIndex> last_recv;
    for (std::uint32_t j = 0; j <= C; ++j) {
      // Message j: the block in hand (j = 0 .. C - 2) and the gradient partial of step j - 1's block
      // (j = 2 .. C: step 0's block is this device's own, and its contribution stays home).
      const bool kv = j + 2 <= C;
      const bool dkv = j >= 2;
      std::optional<OpIndex> arrived;
      if (kv || dkv) {
        const std::string_view send = kv && dkv ? "cp send kv, dkv" : kv ? "cp send kv" : "cp send dkv";
        const std::string_view recv = kv && dkv ? "cp recv kv, dkv" : kv ? "cp recv kv" : "cp recv dkv";
        arrived = ring_transfer((kv ? block : 0) + (dkv ? block : 0), ring_match(Ring::backward, j), B, send, recv,
                                deps);
      }
      if (j < C) {
        if (last_recv) pending_.push_back(*last_recv);  // the block of this step
        const OpIndex step =
            compute(c_.attention_backward(c_.attention(c_.query_tokens(), c_.ring_step_share(j))), B, "attention");
        deps = {step};
      }
      if (arrived) {
        last_recv = arrived;
        deps.push_back(*arrived);
      }
    }
    pending_.push_back(*last_recv);  // the returning gradient of this device's block
  }

  // --- all-gather context parallelism ------------------------------------------------------------------

  [[nodiscard]] bool gathered_context() const {
    return l_.parallel().context_algorithm == ContextAlgorithm::all_gather;
  }
  // Every CP rank's keys and values: C blocks (the gathered output, as nccl-tests sizes an all-gather).
  [[nodiscard]] std::uint64_t context_gather_bytes() const { return c_.kv_block_bytes() * l_.context(); }
  // The keys and values of the whole sequence before attention, after the QKV that made this device's.
  void context_all_gather(Phase phase) {
    on_path(CollectiveKind::all_gather, GroupKind::context, context_gather_bytes(), kTensorStream, phase,
            "cp all-gather kv");
  }

  // --- units: embedding, layers, output layer ----------------------------------------------------

  struct Unit {
    enum class Kind { embedding, layer, output };
    Kind kind;
    std::uint32_t layer;  // the transformer layer, or kNoLayer
  };

  std::vector<Unit> units_of(std::uint32_t chunk) const {
    std::vector<Unit> units;
    if (chunk == 0) units.push_back({Unit::Kind::embedding, kNoLayer});
    const std::uint32_t first = l_.chunk_first_layer(chunk);
    for (std::uint32_t i = first; i < first + l_.chunk_layers(chunk); ++i) units.push_back({Unit::Kind::layer, i});
    if (chunk + 1 == l_.model_chunks()) units.push_back({Unit::Kind::output, kNoLayer});
    return units;
  }

  [[nodiscard]] ParameterCount unit_parameters(const Unit& u) const {
    switch (u.kind) {
      case Unit::Kind::embedding:
        return {local_embedding_parameters(l_), 0};
      case Unit::Kind::output:
        return {local_output_parameters(l_), 0};
      case Unit::Kind::layer:
        break;
    }
    return local_layer_parameters(l_, u.layer);
  }

  [[nodiscard]] std::vector<ParameterTensor> unit_tensors(const Unit& u) const {
    switch (u.kind) {
      case Unit::Kind::embedding:
        return embedding_tensors(l_);
      case Unit::Kind::output:
        return output_tensors(l_);
      case Unit::Kind::layer:
        break;
    }
    return layer_tensors(l_, u.layer);
  }

  // --- ZeRO-3 parameter gathers (parameter_tensors.hpp for the buckets) -----------------------------

  struct StepGather {
    GatherBucket bucket;
    std::size_t unit;                 // position of its unit in the step's units
    std::optional<OpIndex> op;        // the all-gather, once issued
    bool waited = false;              // a compute op of this step already depends on it
  };

  // The step's buckets in the order the compute units need them: unit by unit as the step runs them;
  // within a unit in forward order, except in a backward step without full recomputation, which uses
  // them from the last tensor back.
  void plan_gathers(const std::vector<Unit>& units, bool backward_order) {
    step_gathers_.clear();
    gathers_issued_ = 0;
    if (zero_ < 3) return;
    for (std::size_t i = 0; i < units.size(); ++i) {
      auto buckets = gather_buckets(unit_tensors(units[i]), l_.stack().zero3_gather_elements);
      if (backward_order) std::reverse(buckets.begin(), buckets.end());
      for (auto& b : buckets)
        if (l_.group_size(b.expert ? GroupKind::expert_data : GroupKind::data) > 1)
          step_gathers_.push_back({std::move(b), i, std::nullopt, false});
    }
  }

  // Issues the all-gathers of the step's buckets up to `last`, each after the compute op issued last
  // (so it starts once the compute before it has finished).
  void issue_gathers_through(std::size_t last, Phase phase) {
    for (; gathers_issued_ <= last && gathers_issued_ < step_gathers_.size(); ++gathers_issued_) {
      StepGather& g = step_gathers_[gathers_issued_];
      g.op = communicate(CollectiveKind::all_gather, g.bucket.expert ? GroupKind::expert_data : GroupKind::data,
                         g.bucket.elements * 2, kParamGatherStream, phase, "zero-3 parameter all-gather",
                         after_last_compute());
    }
  }

  // Before a compute op that uses `use`'s weights: with ZeRO-3 its bucket must have been gathered, and the
  // `prefetch` buckets after it may start gathering now.
  void use(ParameterUse use, Phase phase) {
    for (std::size_t b = 0; b < step_gathers_.size(); ++b) {
      StepGather& g = step_gathers_[b];
      if (g.unit != unit_ || std::find(g.bucket.uses.begin(), g.bucket.uses.end(), use) == g.bucket.uses.end())
        continue;
      issue_gathers_through(b + prefetch_, phase);
      if (!g.waited) pending_.push_back(*g.op);
      g.waited = true;
    }
  }

  void forward_step(std::uint32_t chunk) {
    layer_ = kNoLayer;
    if (chunk > 0) p2p(OpKind::recv, Peer::previous_stage, match(chunk - 1, false), Phase::forward, "recv activation");
    const auto units = units_of(chunk);
    plan_gathers(units, false);
    for (unit_ = 0; unit_ < units.size(); ++unit_) {
      layer_ = units[unit_].layer;
      unit_forward(units[unit_], Phase::forward);
    }
    layer_ = kNoLayer;
    if (chunk + 1 < l_.model_chunks())
      p2p(OpKind::send, Peer::next_stage, match(chunk, false), Phase::forward, "send activation");
  }

  void backward_step(std::uint32_t chunk) {
    layer_ = kNoLayer;
    if (chunk + 1 < l_.model_chunks())
      p2p(OpKind::recv, Peer::next_stage, match(chunk, true), Phase::backward, "recv gradient");
    // Gradients are reduced in this step: ZeRO 0-1 once per chunk (its last micro-batch), ZeRO 2-3 always.
    const bool reduce = zero_ >= 2 || mb_ + 1 == l_.micro_batches();
    const bool overlap = zero_ == 3 || l_.stack().overlap_grad_reduce;
    auto units = units_of(chunk);
    std::reverse(units.begin(), units.end());
    plan_gathers(units, recompute_ != Recompute::full);
    for (unit_ = 0; unit_ < units.size(); ++unit_) {
      layer_ = units[unit_].layer;
      unit_backward(units[unit_]);
      if (reduce) reduce_gradients(units[unit_], overlap);
    }
    layer_ = kNoLayer;
    // Buckets never span chunks (ZeRO 0-1 without overlap reduce everything after the backward).
    if (reduce && (overlap || zero_ >= 2)) flush_buckets(true);
    if (chunk > 0) p2p(OpKind::send, Peer::previous_stage, match(chunk - 1, true), Phase::backward, "send gradient");
  }

  // --- forward and backward of one unit ------------------------------------------------------------

  void unit_forward(const Unit& u, Phase phase) {
    switch (u.kind) {
      case Unit::Kind::embedding:
        use(ParameterUse::embedding, phase);
        compute(c_.embedding(), phase, "embedding");
        tensor_reduce(phase);
        return;
      case Unit::Kind::output:
        use(ParameterUse::final_norm, phase);
        compute(c_.norm(), phase, "final norm");
        if (sp_) tensor(CollectiveKind::all_gather, phase, "tp all-gather");
        use(ParameterUse::logits, phase);
        compute(c_.logits(), phase, "logits");
        compute(c_.cross_entropy(), phase, "cross-entropy");
        return;
      case Unit::Kind::layer:
        break;
    }
    // Attention block.
    use(ParameterUse::attention_norm, phase);
    compute(c_.norm(), phase, "norm");
    if (sp_) tensor(CollectiveKind::all_gather, phase, "tp all-gather");
    use(ParameterUse::qkv, phase);
    compute(c_.qkv(), phase, "qkv");
    if (l_.context() > 1 && gathered_context()) {
      context_all_gather(phase);
      compute(c_.attention(c_.sequence(), c_.context_gather_share()), phase, "attention");
    } else if (l_.context() > 1) {
      ring_attention_forward(phase);
    } else {
      compute(c_.attention(c_.sequence(), c_.causal_share()), phase, "attention");
    }
    use(ParameterUse::projection, phase);
    compute(c_.projection(), phase, "projection");
    tensor_reduce(phase);
    // MLP block.
    use(ParameterUse::mlp_norm, phase);
    compute(c_.norm(), phase, "norm");
    if (!l_.is_moe_layer(u.layer)) {
      if (sp_) tensor(CollectiveKind::all_gather, phase, "tp all-gather");
      use(ParameterUse::mlp_in, phase);
      compute(c_.mlp_in(), phase, "mlp in");
      use(ParameterUse::mlp_out, phase);
      compute(c_.mlp_out(), phase, "mlp out");
      tensor_reduce(phase);
      return;
    }
    use(ParameterUse::router, phase);
    compute(c_.router(), phase, "router");
    on_path(CollectiveKind::all_to_all, GroupKind::expert, c_.dispatch_bytes(), kTensorStream, phase, "ep dispatch");
    tensor(CollectiveKind::all_gather, phase, "tp all-gather (experts)", c_.expert_gather_bytes());
    use(ParameterUse::experts_in, phase);
    compute(c_.experts_in(), phase, "experts in");
    use(ParameterUse::experts_out, phase);
    compute(c_.experts_out(), phase, "experts out");
    tensor(CollectiveKind::reduce_scatter, phase, "tp reduce-scatter (experts)", c_.expert_gather_bytes());
    on_path(CollectiveKind::all_to_all, GroupKind::expert, c_.dispatch_bytes(), kTensorStream, phase, "ep combine");
  }

  // With SP and the activations kept, the weight gradient needs the block's gathered input again: an
  // all-gather issued with the gradient's (stream order), consumed by the input GEMM's backward.
  std::optional<OpIndex> regather_input() {
    if (!sp_ || recompute_ == Recompute::full) return std::nullopt;
    return communicate(CollectiveKind::all_gather, GroupKind::tensor, c_.activation_bytes(), kTensorStream,
                       Phase::backward, "tp all-gather (input)", {});
  }

  void unit_backward(const Unit& u) {
    constexpr Phase B = Phase::backward;
    const auto back = [](ComputeCost c) { return LayerCosts::backward(c); };
    switch (u.kind) {
      case Unit::Kind::embedding:
        if (sp_) tensor(CollectiveKind::all_gather, B, "tp all-gather");
        use(ParameterUse::embedding, B);
        compute(back(c_.embedding()), B, "embedding");
        return;
      case Unit::Kind::output:
        compute(back(c_.cross_entropy()), B, "cross-entropy");
        use(ParameterUse::logits, B);
        compute(back(c_.logits()), B, "logits");
        tensor_reduce(B);
        use(ParameterUse::final_norm, B);
        compute(back(c_.norm()), B, "final norm");
        return;
      case Unit::Kind::layer:
        break;
    }
    if (recompute_ == Recompute::full) {
      unit_forward(u, Phase::recompute);
      pending_.clear();  // the recomputed layer output itself is not needed, only its internals
    }
    // MLP block.
    if (!l_.is_moe_layer(u.layer)) {
      std::optional<OpIndex> input;
      if (sp_) {
        tensor(CollectiveKind::all_gather, B, "tp all-gather");
        input = regather_input();
      }
      use(ParameterUse::mlp_out, B);
      compute(back(c_.mlp_out()), B, "mlp out");
      if (input) pending_.push_back(*input);
      use(ParameterUse::mlp_in, B);
      compute(back(c_.mlp_in()), B, "mlp in");
      tensor_reduce(B);
    } else {
      on_path(CollectiveKind::all_to_all, GroupKind::expert, c_.dispatch_bytes(), kTensorStream, B, "ep combine");
      tensor(CollectiveKind::all_gather, B, "tp all-gather (experts)", c_.expert_gather_bytes());
      use(ParameterUse::experts_out, B);
      compute(back(c_.experts_out()), B, "experts out");
      use(ParameterUse::experts_in, B);
      compute(back(c_.experts_in()), B, "experts in");
      tensor(CollectiveKind::reduce_scatter, B, "tp reduce-scatter (experts)", c_.expert_gather_bytes());
      on_path(CollectiveKind::all_to_all, GroupKind::expert, c_.dispatch_bytes(), kTensorStream, B, "ep dispatch");
      use(ParameterUse::router, B);
      compute(back(c_.router()), B, "router");
    }
    use(ParameterUse::mlp_norm, B);
    compute(back(c_.norm()), B, "norm");

    // Attention block.
    std::optional<OpIndex> input;
    if (sp_) {
      tensor(CollectiveKind::all_gather, B, "tp all-gather");
      input = regather_input();
    }
    use(ParameterUse::projection, B);
    compute(back(c_.projection()), B, "projection");
    if (l_.context() > 1 && gathered_context()) {
      // The gathered keys and values are not kept: gathered again for the backward (and its recomputation);
      // the gradients of every device's keys and values go back to their owners reduced.
      context_all_gather(B);
      const ComputeCost attention = c_.attention(c_.sequence(), c_.context_gather_share());
      if (recompute_ == Recompute::selective) compute(attention, Phase::recompute, "attention");
      compute(c_.attention_backward(attention), B, "attention");
      on_path(CollectiveKind::reduce_scatter, GroupKind::context, context_gather_bytes(), kTensorStream, B,
              "cp reduce-scatter dkv");
    } else if (l_.context() > 1) {
      if (recompute_ == Recompute::selective) ring_attention_forward(Phase::recompute);
      ring_attention_backward();
    } else {
      const ComputeCost attention = c_.attention(c_.sequence(), c_.causal_share());
      if (recompute_ == Recompute::selective) compute(attention, Phase::recompute, "attention");
      compute(c_.attention_backward(attention), B, "attention");
    }
    if (input) pending_.push_back(*input);
    use(ParameterUse::qkv, B);
    compute(back(c_.qkv()), B, "qkv");
    tensor_reduce(B);
    use(ParameterUse::attention_norm, B);
    compute(back(c_.norm()), B, "norm");
  }

  // --- data parallelism ----------------------------------------------------------------------------

  CollectiveKind gradient_reduction() const {
    return zero_ == 0 ? CollectiveKind::all_reduce : CollectiveKind::reduce_scatter;
  }

  void reduce_gradients(const Unit& u, bool overlap) {
    const ParameterCount p = unit_parameters(u);
    dense_bucket_ += p.dense * 2;
    expert_bucket_ += p.expert * 2;
    if (zero_ == 3 && l_.stack().zero3_reduce_elements == 0)
      flush_buckets(true);  // each unit's gradients as soon as its backward has run
    else if (overlap)
      flush_buckets(false);
  }

  // Bytes of gradients per reduction: ZeRO-3's reduce bucket, or the data-parallel bucket of ZeRO 0-2 (0:
  // the whole buffer, reduced only when everything is in).
  [[nodiscard]] std::uint64_t reduction_bytes() const {
    return zero_ == 3 ? l_.stack().zero3_reduce_elements * 2 : l_.stack().grad_bucket_bytes;
  }

  // Issues the full buckets (and with `all`, the rest) after the last compute op.
  void flush_buckets(bool all) {
    const std::uint64_t size = reduction_bytes();
    // ZeRO-3's reduce-scatters share the gathers' stream when one process group runs both.
    const std::uint8_t stream = zero_ == 3 && l_.stack().zero3_streams == 1 ? kParamGatherStream : kDataStream;
    const char* label = zero_ == 3 ? "zero-3 gradient reduce-scatter" : "dp gradient reduction";
    const std::pair<GroupKind, std::uint64_t*> parts[] = {{GroupKind::data, &dense_bucket_},
                                                          {GroupKind::expert_data, &expert_bucket_}};
    for (const auto& [group, bytes] : parts) {
      if (l_.group_size(group) <= 1) {
        *bytes = 0;
        continue;
      }
      while ((size > 0 && *bytes >= size) || (all && *bytes > 0)) {
        const std::uint64_t n = size > 0 ? std::min(*bytes, size) : *bytes;
        last_data_ = communicate(gradient_reduction(), group, n, stream, Phase::backward, label, after_last_compute());
        *bytes -= n;
      }
    }
  }

  void finish() {
    layer_ = kNoLayer;
    mb_ = 0;
    if (zero_ < 3) flush_buckets(true);  // ZeRO 0-1 without overlap: everything now
    const ParameterCount p = local_stage_parameters(l_, stage_);
    const auto shard = [](std::uint64_t n, std::uint32_t over) { return (n + over - 1) / over; };
    const std::uint64_t optimized = zero_ == 0 ? p.total()
                                               : shard(p.dense, l_.group_size(GroupKind::data)) +
                                                     shard(p.expert, l_.group_size(GroupKind::expert_data));
    if (last_data_) pending_.push_back(*last_data_);
    const OpIndex step = compute(c_.optimizer(optimized), Phase::optimizer, "optimizer");
    if (zero_ != 1 && zero_ != 2) return;
    // The updated bf16 parameters back to every replica, in buckets (0: all at once).
    const std::uint64_t size = l_.stack().grad_bucket_bytes > 0 ? l_.stack().grad_bucket_bytes : ~std::uint64_t{0};
    const std::pair<GroupKind, std::uint64_t> parts[] = {{GroupKind::data, p.dense * 2},
                                                         {GroupKind::expert_data, p.expert * 2}};
    for (auto [group, bytes] : parts) {
      if (l_.group_size(group) <= 1) continue;
      for (; bytes > 0; bytes -= std::min(bytes, size))
        communicate(CollectiveKind::all_gather, group, std::min(bytes, size), kDataStream, Phase::optimizer,
                    "dp parameter all-gather", {step});
    }
  }

  const TrainingLayout& l_;
  const LayerCosts& c_;
  std::uint32_t stage_;
  bool sp_;
  Recompute recompute_;
  std::uint32_t zero_;
  Program program_;
  std::vector<OpIndex> pending_;  // what the next compute op waits for
  std::optional<OpIndex> last_compute_;
  std::vector<StepGather> step_gathers_;  // ZeRO-3: this step's buckets
  std::size_t gathers_issued_ = 0;
  std::size_t unit_ = 0;                  // the unit being built, as a position in the step's units
  std::uint32_t prefetch_ = 0;            // ZeRO-3 gathers that may run ahead (zero3_prefetch_depth)
  std::optional<OpIndex> last_data_;
  std::uint64_t dense_bucket_ = 0;   // gradient bytes waiting for a bucket
  std::uint64_t expert_bucket_ = 0;
  std::uint32_t layer_ = kNoLayer;
  std::uint32_t mb_ = 0;
};

}  // namespace

double model_flops_per_token(const TransformerSpec& m, std::uint64_t active_parameters) {
  const double attention = (m.causal ? 6.0 : 12.0) * m.layers * static_cast<double>(m.hidden) * m.sequence;
  return 6.0 * static_cast<double>(active_parameters) + attention;
}

const char* model_flops_formula(const TransformerSpec& m) { return m.causal ? "6N + 6Lhs" : "6N + 12Lhs"; }

double program_matmul_flops(const Program& program) {
  double flops = 0;
  for (const Op& op : program.ops)
    if (op.kind == OpKind::compute && op.cost.m != 0) flops += op.cost.flops;
  return flops;
}

TrainingPlan build_training_plan(const TrainingSpec& spec, const network::ClusterSpec& cluster) {
  TrainingPlan plan{TrainingLayout(spec, cluster.devices()), {}, {}, 0, 0, 0, 0, 0};
  const TrainingLayout& l = plan.layout;
  if (l.parallel().dtype == accelerator::DType::fp8 && !(cluster.accelerator.peak_fp8_flops > 0))
    throw std::invalid_argument(fmt::format(
        "workload.parallel.dtype: fp8 needs an accelerator with FP8 support; {} has no peak_fp8_flops",
        cluster.accelerator.name));
  const std::uint64_t matches = pipeline_matches(l) + ring_matches(l);
  if (matches >= (std::uint64_t{1} << 32))
    throw std::invalid_argument(fmt::format("workload.parallel.global_batch: {} micro-batches need {} point-to-point "
                                            "match ids per iteration (pipeline and ring attention), more than the "
                                            "2^32 the ids hold",
                                            l.micro_batches(), matches));

  const LayerCosts costs(l);
  plan.programs.reserve(l.roles());
  for (std::uint32_t stage = 0; stage < l.pipeline(); ++stage) {
    plan.programs.push_back(StageBuilder(l, costs, stage).build());
    plan.hardware_flops += program_matmul_flops(plan.programs.back()) * l.devices_per_role();
  }
  plan.memory = job_memory(l);

  const TransformerSpec& m = l.model();
  plan.parameters = total_parameters(m);
  plan.active_parameters = active_matmul_parameters(m);
  const double tokens = static_cast<double>(l.tokens_per_iteration());
  plan.model_flops = model_flops_per_token(m, plan.active_parameters) * tokens;
  plan.matches_per_iteration = matches;
  return plan;
}

const char* stream_name(std::uint8_t stream) {
  static constexpr const char* kNames[kStreams] = {"compute", "tensor", "data",    "send",
                                                   "recv",    "param gather", "cp send", "cp recv"};
  return stream < kStreams ? kNames[stream] : "stream";
}

}  // namespace rackscale::models::workload
