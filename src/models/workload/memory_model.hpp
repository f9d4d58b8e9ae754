#pragma once
// How much accelerator memory each pipeline stage of a training job needs at its peak.
//
// Model state, per parameter of the device's shard (model_parameters.hpp), mixed-precision Adam as in
// the ZeRO paper (Rajbhandari et al. 2020, "16 Psi"): bf16 weights 2 bytes, bf16 gradients 2 bytes,
// optimizer states 12 bytes (fp32 master weights, Adam m and v). (Megatron-LM accumulates gradients in
// fp32 by default with bf16, 4 bytes; we follow the brief's bf16.) ZeRO shards them over the
// replicas: dense parameters over the DP x CP group, expert parameters over the expert-data group:
//   stage 0: nothing sharded; 1: optimizer states; 2: + gradients; 3: + weights.
// ZeRO-2 also holds 2 reduction buckets of full gradients (StackSpec::grad_bucket_bytes). ZeRO-3 holds
// the gathered weights of the bucket in use and of those prefetched (1 + zero3_prefetch_depth() of the
// stage's largest gather bucket, parameter_tensors.hpp: a unit by default, FSDP's flat parameter), and
// the unreduced gradients of two reduce buckets (one being reduce-scattered, one filling: a unit each by
// default, zero3_reduce_elements with DeepSpeed's reduce buckets).
//
// Activations per layer and micro-batch (Korthikanti et al. 2022, "Reducing Activation Recomputation
// in Large Transformer Models", Sec. 4), generalised from GPT to grouped-query attention, SwiGLU and
// MoE by counting the same tensors. Per token of the device's N = b s / C tokens:
//   replicated over TP (divided by T with sequence parallelism): QKV input 2h, attention dropout mask h,
//     MLP input 2h, MLP dropout mask h, the two norms' inputs 4h: 10h
//   sharded over TP: Q 2 a_t d, K and V 4 g_t d, projection input 2 a_t d, softmax output, dropout mask
//     and dropout output 5 a_t s_kv (s_kv = s, every key), MLP activation input 2 f_in_t and output
//     2 f_t; MoE: per routed copy (top_k x capacity) the same two for an expert, plus the shared experts
//   gathered (MoE with TP): the dispatched tokens after the TP all-gather, 2h per copy
// For GPT (4h MLP, MHA) that is s b h (34 + 5 a s / h) / t with SP, s b h (10 + 24/t + 5 a s/(h t))
// without. Recompute selective drops the 5 a_t s_kv term (34 s b h / t); full keeps each layer's
// input only (2 s b h, / t with SP) plus one layer's full activations while it is recomputed.
// The 5 a_t s_kv term is Korthikanti et al.'s unfused attention (softmax output, dropout mask and output
// of the score matrix, kept for the backward). Fused (flash) attention never materializes the score
// matrix: it keeps the output (counted above as the projection's input) and the softmax statistics, one
// fp32 log-sum-exp per query and head, 4 a_t bytes per token (FlashAttention-2's backward recomputes the
// scores from them). Selective recomputation of fused attention reruns the kernel's forward in the
// backward pass and keeps neither (Megatron's checkpointed core attention); so with fused attention
// `none` is `selective` + 4 a_t, independent of the sequence length.
// A stage holds as many (chunk, micro-batch) activations as its schedule has forwards whose backward
// has not run, at the worst moment: min(P - s, m) chunks for 1F1B, (1 + (P - 1)/(P V)) x P chunks on
// the first stage of the interleaved schedule (both found by walking pipeline_schedule()). Each holds
// the activations of its own chunk's layers (uneven stages: TrainingLayout::chunk_layers), and the peak
// is that of the bytes, not of the count.
// Embedding: its dropout mask, N h (/ T with SP) bytes per in-flight chunk 0. Output layer: the final
// norm's and the logits GEMM's inputs 4 N h (/ T with SP) and fp32 logits 4 N V / T per in-flight last
// chunk (Korthikanti et al.'s 4 s b h / t (1 + v / h)).
//
// Communication buffers: 64 MiB per communicator the device uses (tensor, context, data, expert,
// expert-data groups of more than one device, and one for pipeline point-to-point): a documented
// default for NCCL's per-channel buffers (NCCL_BUFFSIZE 4 MiB x up to 16 channels).
// Plus, with context parallelism (C > 1), ring attention's receive buffers: the key/value blocks of
// other CP ranks in flight, k = b s_q 2 g_t d 2 bytes each (K and V of s_q = s / C tokens, bf16; the
// message size of training_plan.hpp). In the forward pass (and its recomputation) a device holds the
// block it computes with and the one arriving: min(C - 1, 2) blocks. In the backward pass message j of
// the ring carries block j (j <= C - 2) and the gradient partial of block j - 1 (j >= 2), each k bytes,
// and a device holds the message it computes with and the one arriving: at most min(C - 1, 4) blocks
// (C = 2: 1, C = 3: 2, C = 4: 3, from C = 5 on 4: two messages of block and partial). Rings run one layer
// at a time, so this is counted once, at the backward's min(C - 1, 4) k, on top of the activations'
// peak (the stage's first backward runs while it holds that peak), as TransformerEngine's double-buffered
// send/receive tensors are. With all-gather context parallelism (ContextAlgorithm::all_gather) the
// buffers are the gathered keys and values of the whole sequence and, in the backward pass, their
// gradients before the reduce-scatter: 2 C k, one layer at a time likewise. Not modelled: the CUDA context, library workspaces and allocator
// fragmentation (typically 1-5 GiB; leave headroom).
#include <cstdint>
#include <vector>

#include "models/workload/training_layout.hpp"

namespace rackscale::models::workload {

inline constexpr std::uint64_t kWeightBytesPerParameter = 2;     // bf16
inline constexpr std::uint64_t kGradientBytesPerParameter = 2;   // bf16
inline constexpr std::uint64_t kOptimizerBytesPerParameter = 12; // fp32 master weights, Adam m and v
inline constexpr std::uint64_t kCommunicatorBufferBytes = 64ULL << 20;

// One stage's (role's) peak, in bytes per device.
struct MemoryBreakdown {
  std::uint32_t stage = 0;
  std::uint64_t weights = 0;
  std::uint64_t gradients = 0;
  std::uint64_t optimizer_states = 0;
  std::uint64_t activations = 0;
  std::uint64_t communication_buffers = 0;  // communicators and ring attention's receive buffers
  // Details.
  std::uint64_t ring_attention_buffers = 0;   // of communication_buffers: the CP ring's blocks in flight
  std::uint64_t parameters = 0;               // the device's parameter shard before ZeRO (dense + expert)
  std::uint64_t chunks_in_flight = 0;         // (model chunk, micro-batch) forwards held at the peak
  std::uint64_t layer_activations = 0;        // one layer's bytes for one micro-batch (the largest)

  [[nodiscard]] std::uint64_t total() const noexcept {
    return weights + gradients + optimizer_states + activations + communication_buffers;
  }
};

// Ring attention's receive buffers on one device (see above): 0 without context parallelism.
[[nodiscard]] std::uint64_t ring_attention_buffer_bytes(const TrainingLayout& layout);
// Bytes one layer keeps for one micro-batch on one device under `policy` (see above).
[[nodiscard]] std::uint64_t layer_activation_bytes(const TrainingLayout& layout, std::uint32_t layer,
                                                   Recompute policy);
[[nodiscard]] MemoryBreakdown stage_memory(const TrainingLayout& layout, std::uint32_t stage);
// Every stage's, indexed by role (= stage).
[[nodiscard]] std::vector<MemoryBreakdown> job_memory(const TrainingLayout& layout);

}  // namespace rackscale::models::workload
