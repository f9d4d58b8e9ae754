#pragma once
// A training job as device programs: what every pipeline stage runs in one iteration (the executor
// repeats it `iterations` times), with the job's FLOPs and each stage's memory.
//
// Streams (ops on one stream run in program order; streams overlap):
//   0 compute       every compute op
//   1 tensor        TP all-reduce / SP all-gather and reduce-scatter, EP all-to-all: on the critical path
//   2 data          DP gradient reductions (buckets), ZeRO-3 gradient reduce-scatters, the parameter
//                   all-gathers after the optimizer (ZeRO 1-2)
//   3 send          pipeline sends
//   4 recv          pipeline receives, in the order their data is consumed
//   5 param gather  ZeRO-3 parameter all-gathers before each layer
//   6 cp send       CP ring attention: key/value blocks (and their gradients) to the next CP rank
//   7 cp recv       CP ring attention: the same from the previous CP rank, in the order they are used
//
// Per micro-batch and model chunk, a forward step is: [recv activation from the previous stage],
// [embedding on model chunk 0], each layer, [output layer and loss on the last model chunk], [send to
// the next stage]. A layer (T = tensor, SP = sequence parallel; [] only when it applies):
//   norm, [SP: TP all-gather], QKV, attention (with CP: ring attention, below), projection, [TP
//   all-reduce, or SP reduce-scatter],
//   norm, dense MLP:  [SP: all-gather], MLP in, MLP out, [TP all-reduce or SP reduce-scatter]
//         or MoE:     router, [EP all-to-all dispatch], [T > 1: TP all-gather of the dispatched tokens],
//                     experts in, experts out, [TP reduce-scatter], [EP all-to-all combine]
// The backward step runs the layers in reverse: [full recompute: the layer's forward again, phase
// recompute], MLP block backward ([SP: all-gather of the gradient and, overlapped, of the MLP input for
// the weight gradient], MLP out, MLP in, [TP all-reduce or SP reduce-scatter], norm; MoE: all-to-all,
// all-gather, experts out, experts in, reduce-scatter, all-to-all, router, norm), attention block
// backward ([SP: two all-gathers as above], projection, [selective: attention forward again, phase
// recompute], attention, QKV, [TP all-reduce or SP reduce-scatter], norm). A collective on the critical
// path depends on the compute op before it, and the compute op after it depends on the collective.
//
// Context parallelism is ring attention as Megatron-LM / TransformerEngine run it (load-balanced, each
// device holding 2 of the 2C chunks of every sequence): a device's queries meet the C key/value blocks
// of the CP group one after another while the blocks travel round the ring (point-to-point sends to the
// next CP rank, receives from the previous, on streams 6 and 7). With causal load balancing every step
// computes the same share, attention over s_q = s / C keys. Forward (and its recomputation), C steps:
//   step j: attention of the local queries against the block in hand (its own at step 0, the block
//           received in step j - 1 after); for j < C - 1 the block in hand goes on to the next rank,
//           after the QKV (j = 0) or once it has arrived (j > 0).
// Backward, C steps of attention backward (each twice the forward's step), the block in hand as above.
// The gradient dK, dV of a block accumulates along the ring behind it: the device that held it in step
// j - 1 sends its partial (its own contribution, plus the partial it received) to the next rank during
// step j, which adds its own; after the last step the partial returns to the block's owner, which adds
// the contribution of its step 0 (C - 1 hops, like the blocks). As TransformerEngine does, step j's
// key/value block and the previous step's gradient partial travel in one message (j = 0, 1: the block
// only; j = C - 1, C: the partial only; with C = 2 there is no message 1), which leaves once step j - 1's
// attention backward has run and step j - 1's message has arrived; the QKV backward waits for the returning partial (message C). A
// send completes when the receiver has the data (as pipeline sends), and each ring's messages wait for
// the previous one on the send stream. What the compute units wait for in these transfers is exposed
// communication.
//
// Pipeline transfers: the activation of model chunk k for micro-batch i has match id 2 (i K + k) (K =
// model chunks), the gradient going back to chunk k the id 2 (i K + k) + 1. Ring attention's message of
// step j, ring r (0 forward, 1 recomputation, 2 backward), layer l and micro-batch i: 2 m K + ((i L + l)
// 3 + r)(C + 1) + j. Ids are unique within an iteration and below matches_per_iteration. Bytes of a
// pipeline transfer: micro_batch x (sequence / context) x hidden x 2, divided by tensor with SP. The
// schedule is pipeline_schedule()'s (1F1B or interleaved 1F1B).
//
// Data parallelism: ZeRO 0 all-reduces gradients, ZeRO 1-2 reduce-scatter them, over the DP x CP group
// (expert parameters over the expert-data group), in buckets of bucket_bytes (bf16 gradients, 2 bytes
// per parameter; buckets never span model chunks, the last of a chunk may be smaller). ZeRO 0-1 reduce
// once, in the last micro-batch's backward of each chunk; ZeRO 2 in every micro-batch's backward (only
// a shard of the gradients is kept). With overlap_grad_reduce a bucket starts as soon as the backward op
// completing its last gradient has run; without it, after the whole backward (ZeRO 0-1) or after each
// chunk backward (ZeRO 2). Then the optimizer (Adam over the local shard, HBM-bound) and, for ZeRO 1-2,
// all-gathers of the updated bf16 parameters in buckets. ZeRO 3 all-gathers each unit's parameters (a
// layer, the embedding, the output layer) before its forward and before its backward in every
// micro-batch, on stream 5: with overlap_param_gather the gather of a unit may start when the previous
// unit's compute starts (one unit of prefetch), otherwise only when it has finished; each unit's
// gradients are reduce-scattered after its backward in every micro-batch.
//
// Not modelled: the vocabulary-parallel cross-entropy's small all-reduces, the all-reduce that ties the
// first and last stages' embedding copies, shared experts' own TP communication, causal masking
// (attention counts every key, as Narayanan et al. 2021 do), ring attention's softmax-correction kernels.
#include <cstdint>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/workload/memory_model.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/workload/training_layout.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::models::workload {

inline constexpr std::uint8_t kComputeStream = 0;
inline constexpr std::uint8_t kTensorStream = 1;
inline constexpr std::uint8_t kDataStream = 2;
inline constexpr std::uint8_t kSendStream = 3;
inline constexpr std::uint8_t kRecvStream = 4;
inline constexpr std::uint8_t kParamGatherStream = 5;
inline constexpr std::uint8_t kContextSendStream = 6;
inline constexpr std::uint8_t kContextRecvStream = 7;
inline constexpr std::uint8_t kStreams = 8;
// "compute", "tensor", "data", "send", "recv", "param gather", "cp send", "cp recv" (for traces).
[[nodiscard]] const char* stream_name(std::uint8_t stream);

// Op::layer of ops that belong to no transformer layer (embedding, output layer, optimizer, DP).
inline constexpr std::uint32_t kNoLayer = 0xFFFFFFFFu;

struct TrainingPlan {
  TrainingLayout layout;
  // programs[role]; role = pipeline stage (TrainingLayout::role_of). One iteration each.
  std::vector<accelerator::Program> programs;
  // memory[role]: the stage's peak per device.
  std::vector<MemoryBreakdown> memory;
  // Per iteration, whole job. model_flops: the MFU numerator, model_flops_per_token() x tokens.
  // hardware_flops: the matrix-product FLOPs the programs execute, with recomputation (and MoE capacity
  // padding; fused causal attention's skipped tiles are not executed); for GPT with unfused attention and
  // full recomputation it is Narayanan et al.'s 96 B s l h^2 (1 + s / 6h + V / 16 l h).
  double model_flops = 0;
  double hardware_flops = 0;
  std::uint64_t parameters = 0;         // the whole model's
  std::uint64_t active_parameters = 0;  // per token, as in model_flops
  // Send/recv match ids of one iteration (pipeline and ring attention) are below this.
  std::uint64_t matches_per_iteration = 0;
};

// Validates (TrainingLayout's errors, and dtype fp8 on an accelerator without FP8) and builds the plan.
// Throws std::invalid_argument whose message starts with the config key at fault. Does not check that
// the job fits in memory: memory::check_memory(plan.layout, cluster.accelerator) does.
[[nodiscard]] TrainingPlan build_training_plan(const TrainingSpec& spec, const network::ClusterSpec& cluster);

// The MFU numerator per token: 6 N + 6 L h s for a causal model (N active parameters, counting top_k
// experts and the output layer, not the embedding lookup). 12 L h s is attention with every key, as PaLM
// counts it (Chowdhery et al. 2022, App. B); under a causal mask half of the scores exist, 6 L h s.
// 6 N + 12 L h s for a model without a causal mask. No recomputation.
[[nodiscard]] double model_flops_per_token(const TransformerSpec& model, std::uint64_t active_parameters);
// That formula as reports state it beside MFU: "6N + 6Lhs" (causal) or "6N + 12Lhs".
[[nodiscard]] const char* model_flops_formula(const TransformerSpec& model);

// The matrix-product FLOPs of one program (compute ops with a shape): one device's share.
[[nodiscard]] double program_matmul_flops(const accelerator::Program& program);

}  // namespace rackscale::models::workload
