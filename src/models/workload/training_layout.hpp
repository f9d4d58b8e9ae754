#pragma once
// Where every device of a training job sits in the parallelism grid, and who its partners are.
//
// Device order (Megatron-LM's RankGenerator with order "tp-cp-ep-dp-pp"): tensor-parallel rank varies
// fastest, then context, then data, then pipeline:
//
//   device = tp + T x (cp + C x (dp + D x pp))
//
// so a TP group is T consecutive devices (inside a node / scale-up domain) and a pipeline stage is a
// contiguous block of T x C x D devices. Expert parallelism re-divides the C x D devices of a stage
// that share a TP rank, as Megatron Core's expert rank generator does ("tp-ep-dp-pp" with expert
// TP = TP): with r = cp + C x dp (the device's index in its DP x CP group), the EP rank is r mod E and
// the expert-data rank is r / E, so an EP group is E consecutive members of the DP x CP group.
//
// Groups (GroupKind), members in rank order:
//   tensor       T devices: same cp, dp, pp; by tp.
//   context      C devices: same tp, dp, pp; by cp.
//   data         C x D devices: same tp, pp; by r = cp + C x dp. This is Megatron's data-parallel group
//                *with* context parallelism: CP ranks hold the same weights, so gradients are reduced,
//                and ZeRO shards live, over DP x CP. With C = 1 it is the plain DP group.
//   expert       E devices: same tp, pp, r / E; by r mod E.
//   expert_data  C x D / E devices: same tp, pp, r mod E; by r / E. Expert weights' replicas.
//   pipeline     P devices: same tp, cp, dp; by pp.
//   world        every device, by index.
//
// Pipeline model chunks: with V virtual stages per device (interleaved 1F1B), model chunk
// k = c x P + s (c = 0..V-1 the device's virtual stage, s its pipeline stage) holds the next n_k layers
// after those of chunks 0..k-1 (Megatron-LM's order: layers run through chunk 0 of every stage, then
// chunk 1 of every stage, ...). The embedding is on chunk 0, the output layer on chunk K - 1 (K = P V).
// The next chunk is on stage s + 1, or for s = P - 1 on stage 0: the next-stage peer of the last stage
// is stage 0 (and only exists with V > 1).
//
// Layers per chunk, n_k:
//   even (default)        L / K each; L must divide by K.
//   first_stage_layers F, last_stage_layers Z (either or both, P > 1): the first (last) pipeline stage
//                         holds F (Z) layers, every other stage (L - F - Z) / P' with P' the stages
//                         left, which must divide evenly over their P' V chunks. A stage's layers spread
//                         over its V chunks as evenly as possible; when they do not divide, the first
//                         stage's earliest chunks and the last stage's latest chunks take one layer
//                         fewer, so the chunk with the embedding (chunk 0) and the one with the output
//                         layer (chunk K - 1) are the lightest: Llama 3 405B's 126 layers on 16 stages x 4
//                         are F = Z = 7: chunk 0 and chunk 63 hold 1 layer, the other 62 chunks 2.
//                         (Megatron core requires F and Z to divide by V; where they do, this is its split.)
//   chunk_layers [n_0, ..., n_{K-1}]: as given; they must sum to L.
// Only chunk 0 and chunk K - 1 may hold no layers (a stage of just the embedding or the output layer);
// an empty chunk in between would only pass activations on.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::models::workload {

struct Coordinates {
  std::uint32_t tensor = 0;
  std::uint32_t context = 0;
  std::uint32_t data = 0;
  std::uint32_t pipeline = 0;
  std::uint32_t expert = 0;       // rank in the EP group
  std::uint32_t expert_data = 0;  // rank in the expert-data group

  friend bool operator==(const Coordinates&, const Coordinates&) = default;
};

class TrainingLayout {
 public:
  // Validates `spec` for `devices` devices. Throws std::invalid_argument whose message starts with the
  // config key at fault ("workload.parallel.tensor: 8 x pipeline 16 x context 1 = 128 does not divide
  // the 1000 devices"). Defaults are resolved: data 0 -> devices / (T P C), kv_heads 0 -> heads,
  // ffn_hidden 0 -> 4 x hidden, moe_ffn_hidden 0 -> ffn_hidden.
  TrainingLayout(const TrainingSpec& spec, std::uint64_t devices);

  // The spec with its defaults resolved.
  [[nodiscard]] const TrainingSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] const TransformerSpec& model() const noexcept { return spec_.model; }
  [[nodiscard]] const ParallelSpec& parallel() const noexcept { return spec_.parallel; }
  [[nodiscard]] const StackSpec& stack() const noexcept { return spec_.stack; }

  [[nodiscard]] std::uint32_t devices() const noexcept { return devices_; }
  [[nodiscard]] std::uint32_t tensor() const noexcept { return spec_.parallel.tensor; }
  [[nodiscard]] std::uint32_t context() const noexcept { return spec_.parallel.context; }
  [[nodiscard]] std::uint32_t data() const noexcept { return spec_.parallel.data; }
  [[nodiscard]] std::uint32_t pipeline() const noexcept { return spec_.parallel.pipeline; }
  [[nodiscard]] std::uint32_t expert() const noexcept { return spec_.parallel.expert; }
  [[nodiscard]] std::uint32_t virtual_stages() const noexcept { return spec_.parallel.virtual_stages; }
  // Members of a group of this kind (every group of a kind has the same size).
  [[nodiscard]] std::uint32_t group_size(accelerator::GroupKind kind) const noexcept;

  [[nodiscard]] Coordinates coordinates(std::uint32_t device) const;
  [[nodiscard]] std::uint32_t device_at(std::uint32_t tp, std::uint32_t cp, std::uint32_t dp, std::uint32_t pp) const;
  // The members of `device`'s group of `kind`, in rank order (identical on every member).
  [[nodiscard]] std::vector<std::uint32_t> group(std::uint32_t device, accelerator::GroupKind kind) const;
  [[nodiscard]] std::uint32_t rank_in_group(std::uint32_t device, accelerator::GroupKind kind) const;
  // The device that holds the next (previous) model chunk's stage; none for the last (first) stage
  // without interleaving, and with a single stage. Context peers: the next (previous) device of the CP
  // group, cyclically (the ring of ring attention); none with context 1.
  [[nodiscard]] std::optional<std::uint32_t> peer(std::uint32_t device, accelerator::Peer which) const;

  // Programs are shared by the devices of one pipeline stage: role = stage.
  [[nodiscard]] std::uint32_t roles() const noexcept { return pipeline(); }
  [[nodiscard]] std::uint32_t role_of(std::uint32_t device) const { return coordinates(device).pipeline; }
  // Devices that run each role's program.
  [[nodiscard]] std::uint32_t devices_per_role() const noexcept { return devices_ / pipeline(); }

  // Model chunks: P x V of them; chunk k holds layers [chunk_first_layer(k), chunk_first_layer(k) +
  // chunk_layers(k)).
  [[nodiscard]] std::uint32_t model_chunks() const noexcept { return pipeline() * virtual_stages(); }
  [[nodiscard]] std::uint32_t chunk_first_layer(std::uint32_t chunk) const { return chunk_first_.at(chunk); }
  [[nodiscard]] std::uint32_t chunk_layers(std::uint32_t chunk) const {
    return chunk_first_.at(chunk + 1) - chunk_first_.at(chunk);
  }
  // Layers of `stage` over all its virtual stages.
  [[nodiscard]] std::uint32_t stage_layers(std::uint32_t stage) const;
  // Every chunk holds L / (P V) layers.
  [[nodiscard]] bool even_stages() const noexcept { return even_stages_; }
  [[nodiscard]] std::uint32_t model_chunk(std::uint32_t stage, std::uint32_t virtual_stage) const noexcept {
    return virtual_stage * pipeline() + stage;
  }
  [[nodiscard]] bool is_moe_layer(std::uint32_t layer) const noexcept {
    return spec_.model.experts > 0 && layer >= spec_.model.dense_layers;
  }

  [[nodiscard]] std::uint64_t tokens_per_iteration() const noexcept {
    return spec_.parallel.global_batch * spec_.model.sequence;
  }
  // Micro-batches each DP replica runs per iteration: global_batch / (micro_batch x data).
  [[nodiscard]] std::uint64_t micro_batches() const noexcept { return micro_batches_; }
  // Tokens of one micro-batch on one device's CP shard: micro_batch x sequence / context.
  [[nodiscard]] std::uint64_t micro_batch_tokens() const noexcept {
    return spec_.parallel.micro_batch * (spec_.model.sequence / context());
  }

 private:
  // Fills chunk_first_ from the spec (the split above), or throws naming the key at fault.
  void split_layers();

  TrainingSpec spec_;
  std::uint32_t devices_ = 0;
  std::uint64_t micro_batches_ = 0;
  std::vector<std::uint32_t> chunk_first_;  // K + 1 entries: chunk k's first layer; the last is L
  bool even_stages_ = true;
};

}  // namespace rackscale::models::workload
