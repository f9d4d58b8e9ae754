#pragma once
// What each compute op of one micro-batch costs on one device, and how many bytes each of its
// communications moves: the arithmetic behind the training programs.
//
// Shapes, per device: b the micro-batch, s_q = sequence / C the device's tokens of each sequence (CP),
// N = b s_q tokens in the TP group, N_sp = N / T with sequence parallelism (else N), a_t = heads / T
// query heads, g_t = kv_heads / T (1 when T > kv_heads: replicated) key/value heads, d the head
// dimension, f_t = ffn_hidden / T.
//
// Matrix products (m x k times k x n, `batch` times; FLOPs 2 m n k batch; HBM bytes
// batch (m k + k n) e + m n 2 with e = 2 bytes per operand, 1 with dtype fp8):
//   QKV          m = N, n = (a_t + 2 g_t) d, k = h
//   attention    m = s_q, n = s_kv, k = d, batch = 2 b a_t: scores QK^T and the product with V have the
//                same FLOPs, 4 b s_q s_kv a_t d, times the share of score tiles computed. Fused (flash)
//                attention: HBM bytes are Q, K, V and the output only; with a causal mask it skips the
//                tiles above the diagonal (FlashAttention-2, Dao 2023, Sec. 3.1.1: tiles of 128 x 128),
//                computing (n + 1) / 2n of them for n tiles a side. Unfused attention computes every
//                score and masks afterwards (share 1), as Narayanan et al. 2021 count.
//   projection   m = N, n = h, k = a_t d
//   MLP in       m = N, n = f_t (GeLU) or 2 f_t (SwiGLU gate and up), k = h, plus the activation's
//                bytes (its FLOPs are left out, so ops with a shape carry matrix-product FLOPs only)
//   MLP out      m = N, n = h, k = f_t
//   router       m = N_sp, n = experts, k = h
//   experts      grouped GEMM over E / EP local experts, R = N top_k capacity_factor token copies in all
//                (after the EP all-to-all and the TP all-gather): m = R / (E / EP) rows each, k = h,
//                n = moe_ffn / T (x 2 for SwiGLU's first matrix); shared experts' FLOPs and bytes are
//                added to the same op (Megatron runs them beside the routed ones)
//   logits       m = N, n = ceil(V / T), k = h
// Element-wise ops (m = 0; FLOPs and bytes per element of N_sp x h): norm = dropout + residual add +
// LayerNorm, 8 FLOPs and 9 bytes; embedding lookup 4 bytes per element of N x h; cross-entropy
// 5 FLOPs and 6 bytes per logit (bf16 read, fp32 softmax kept for the backward); Adam 12 FLOPs and 28
// bytes per parameter of the local shard (bf16 gradient read; fp32 master, m, v read and written; bf16
// parameter written).
// Backward: twice the forward's FLOPs and bytes (the data and weight gradients), same shape; fused
// attention's backward 5/2 of its forward's FLOPs (FlashAttention-2's backward runs five tile products,
// S = Q K^T again, dP = dO V^T, dV = P^T dO, dQ = dS K, dK = dS^T Q, against the forward's two).
#include <cstdint>

#include "models/vocabulary/program.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::models::workload {

// The side of a fused attention kernel's score tile (FlashAttention-2's 128 x 128 blocks for head
// dimensions 64-128): the granularity at which a causal mask lets it skip work.
inline constexpr std::uint64_t kAttentionTile = 128;

class LayerCosts {
 public:
  explicit LayerCosts(const TrainingLayout& layout);

  [[nodiscard]] accelerator::ComputeCost norm() const;
  [[nodiscard]] accelerator::ComputeCost qkv() const;
  // Attention of the device's s_q queries against `kv_tokens` keys of each sequence, of whose score tiles
  // `share` are computed (causal_share(), ring_step_share()).
  [[nodiscard]] accelerator::ComputeCost attention(std::uint64_t kv_tokens, double share) const;
  // Its backward: LayerCosts::backward's for unfused attention; 5/2 of the forward's FLOPs for fused.
  [[nodiscard]] accelerator::ComputeCost attention_backward(accelerator::ComputeCost forward) const;
  // The share of score tiles fused causal attention computes over a whole sequence (s queries against
  // s keys): (n + 1) / 2n with n = ceil(s / kAttentionTile); 1 unfused or without a causal mask.
  [[nodiscard]] double causal_share() const noexcept;
  // Ring attention's step j with causal load balancing (each device holds chunks i and 2C - 1 - i of
  // the 2C chunks of s / 2C tokens): step 0 meets the device's own chunks, two diagonal blocks and one
  // unmasked, 1/2 + 1/4n with n tiles a chunk; every later step exactly half of its block pair (one
  // chunk of the pair is wholly visible, the other wholly masked). 1 unfused or without a causal mask.
  [[nodiscard]] double ring_step_share(std::uint32_t step) const noexcept;
  // All-gather context parallelism: the device's two chunks of queries against every key, of which the
  // causal mask leaves (2C - 1) whole chunk blocks and two diagonal ones out of 4C: 1/2 + 1/(4 C n) with n
  // tiles a chunk (1 unfused or without a causal mask).
  [[nodiscard]] double context_gather_share() const noexcept;
  [[nodiscard]] accelerator::ComputeCost projection() const;
  [[nodiscard]] accelerator::ComputeCost mlp_in() const;
  [[nodiscard]] accelerator::ComputeCost mlp_out() const;
  [[nodiscard]] accelerator::ComputeCost router() const;
  [[nodiscard]] accelerator::ComputeCost experts_in() const;
  [[nodiscard]] accelerator::ComputeCost experts_out() const;
  [[nodiscard]] accelerator::ComputeCost embedding() const;
  [[nodiscard]] accelerator::ComputeCost logits() const;
  [[nodiscard]] accelerator::ComputeCost cross_entropy() const;
  [[nodiscard]] accelerator::ComputeCost optimizer(std::uint64_t parameters) const;
  // The backward op of a forward op: twice the FLOPs and bytes, and kernel launches.
  [[nodiscard]] static accelerator::ComputeCost backward(accelerator::ComputeCost forward);

  [[nodiscard]] std::uint64_t query_tokens() const noexcept { return s_q_; }  // s_q
  [[nodiscard]] std::uint64_t sequence() const noexcept { return s_; }        // every key: s_kv in all

  // Communication sizes in bytes (as nccl-tests counts them, see accelerator::Op::bytes).
  // TP all-reduce, SP all-gather and reduce-scatter of activations: N h 2.
  [[nodiscard]] std::uint64_t activation_bytes() const noexcept { return n_ * h_ * 2; }
  // Pipeline send/recv: N_sp h 2 (the sequence-sharded tensor with SP).
  [[nodiscard]] std::uint64_t pipeline_bytes() const noexcept { return n_sp_ * h_ * 2; }
  // CP ring attention: one device's keys and values (its s_q tokens), b s_q 2 g_t d 2; its gradient
  // (dK, dV) is as large. All-gather CP gathers C of them (the nccl-tests size C b s_q 2 g_t d 2).
  [[nodiscard]] std::uint64_t kv_block_bytes() const noexcept { return b_ * s_q_ * 2 * g_t_ * d_ * 2; }
  // EP all-to-all: what each member sends, N_sp top_k capacity h 2.
  [[nodiscard]] std::uint64_t dispatch_bytes() const noexcept;
  // TP all-gather / reduce-scatter of the dispatched tokens: N top_k capacity h 2.
  [[nodiscard]] std::uint64_t expert_gather_bytes() const noexcept;

 private:
  [[nodiscard]] accelerator::ComputeCost gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k,
                                              std::uint64_t batch = 1) const;

  accelerator::DType dtype_;
  double operand_bytes_;
  bool fused_attention_ = true;
  bool causal_ = true;
  std::uint32_t context_ = 1;
  std::uint64_t b_, s_, s_q_, n_, n_sp_, h_, a_t_, g_t_, d_, f_t_, f_in_t_;
  std::uint64_t experts_, local_experts_, top_k_, shared_, fe_t_, fe_in_t_, vocab_t_;
  double capacity_;
};

}  // namespace rackscale::models::workload
