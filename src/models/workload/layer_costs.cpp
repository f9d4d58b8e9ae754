#include "models/workload/layer_costs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rackscale::models::workload {
namespace {

using accelerator::ComputeCost;

std::uint32_t dim(std::uint64_t v) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, std::numeric_limits<std::uint32_t>::max()));
}

double d(std::uint64_t v) { return static_cast<double>(v); }

ComputeCost elementwise(double elements, double flops_per, double bytes_per, std::uint32_t kernels) {
  ComputeCost c;
  c.flops = elements * flops_per;
  c.bytes = elements * bytes_per;
  c.kernels = kernels;
  return c;
}

}  // namespace

LayerCosts::LayerCosts(const TrainingLayout& l) {
  const TransformerSpec& m = l.model();
  const ParallelSpec& p = l.parallel();
  const std::uint64_t t = p.tensor;
  dtype_ = p.dtype;
  operand_bytes_ = p.dtype == accelerator::DType::fp8 ? 1.0 : 2.0;
  b_ = p.micro_batch;
  s_ = m.sequence;
  s_q_ = s_ / p.context;
  n_ = b_ * s_q_;
  n_sp_ = p.sequence_parallel ? n_ / t : n_;
  h_ = m.hidden;
  d_ = h_ / m.heads;
  a_t_ = m.heads / t;
  g_t_ = m.kv_heads >= t ? m.kv_heads / t : 1;
  f_t_ = m.ffn_hidden / t;
  const std::uint64_t gated = m.activation == Activation::swiglu ? 2 : 1;
  f_in_t_ = gated * f_t_;
  experts_ = m.experts;
  local_experts_ = m.experts == 0 ? 1 : m.experts / p.expert;  // 1 for dense models: never a divisor of 0
  top_k_ = m.top_k;
  shared_ = m.shared_experts;
  fe_t_ = m.moe_ffn_hidden / t;
  fe_in_t_ = gated * fe_t_;
  vocab_t_ = (std::uint64_t{m.vocabulary} + t - 1) / t;
  capacity_ = m.capacity_factor;
  fused_attention_ = p.fused_attention;
  causal_ = m.causal;
  context_ = p.context;
}

ComputeCost LayerCosts::gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k, std::uint64_t batch) const {
  ComputeCost c;
  c.dtype = dtype_;
  c.m = dim(m);
  c.n = dim(n);
  c.k = dim(k);
  c.batch = dim(batch);
  c.flops = 2.0 * d(m) * d(n) * d(k) * d(batch);
  c.bytes = d(batch) * ((d(m) * d(k) + d(k) * d(n)) * operand_bytes_ + d(m) * d(n) * 2.0);
  return c;
}

ComputeCost LayerCosts::norm() const { return elementwise(d(n_sp_ * h_), 8, 9, 2); }

ComputeCost LayerCosts::qkv() const { return gemm(n_, (a_t_ + 2 * g_t_) * d_, h_); }

ComputeCost LayerCosts::attention(std::uint64_t kv_tokens, double share) const {
  ComputeCost c = gemm(s_q_, kv_tokens, d_, 2 * b_ * a_t_);
  c.flops *= share;
  // Flash attention never writes the score matrix: Q and the output, K and V.
  c.bytes = 2.0 * d(b_) * (2.0 * d(s_q_ * a_t_ * d_) + 2.0 * d(kv_tokens * g_t_ * d_));
  if (!fused_attention_) {
    // Unfused (Megatron-LM's scaled-masked-softmax and dropout kernels): per score element, QK^T writes
    // it (2 bytes), the softmax reads it and writes the probabilities (4), dropout reads them and writes
    // the kept values and a 1-byte mask (5), and the product with V reads them (2): 13 bytes, 3 kernels.
    c.bytes += 13.0 * d(b_ * a_t_) * d(s_q_) * d(kv_tokens);
    c.kernels += 3;
  }
  return c;
}

ComputeCost LayerCosts::attention_backward(ComputeCost forward) const {
  ComputeCost c = backward(forward);
  if (fused_attention_) {
    c.flops = forward.flops * 2.5;
    c.batch = forward.batch / 2 * 5;  // 2 b a_t forward products become 5 b a_t
  }
  return c;
}

namespace {
std::uint64_t tiles(std::uint64_t tokens) { return (tokens + kAttentionTile - 1) / kAttentionTile; }
}  // namespace

double LayerCosts::causal_share() const noexcept {
  if (!causal_ || !fused_attention_) return 1.0;
  const double n = d(tiles(s_));
  return (n + 1) / (2 * n);
}

double LayerCosts::ring_step_share(std::uint32_t step) const noexcept {
  if (!causal_ || !fused_attention_) return 1.0;
  if (step > 0) return 0.5;
  const double n = d(tiles(s_ / (2 * std::uint64_t{context_})));
  return 0.5 + 1 / (4 * n);
}

double LayerCosts::context_gather_share() const noexcept {
  if (!causal_ || !fused_attention_) return 1.0;
  const double n = d(tiles(s_ / (2 * std::uint64_t{context_})));
  return 0.5 + 1 / (4 * d(context_) * n);
}

ComputeCost LayerCosts::projection() const { return gemm(n_, h_, a_t_ * d_); }

ComputeCost LayerCosts::mlp_in() const {
  ComputeCost c = gemm(n_, f_in_t_, h_);
  // The activation (GeLU, or SiLU times the gate) reads the product and writes f_t per token. Its few
  // FLOPs per element are left out: element-wise work is bound by HBM bytes, and FLOPs of ops with a
  // shape stay pure matrix-product FLOPs (the hardware-FLOPs convention).
  c.bytes += 2.0 * d(n_ * (f_in_t_ + f_t_));
  c.kernels = 2;
  return c;
}

ComputeCost LayerCosts::mlp_out() const { return gemm(n_, h_, f_t_); }

ComputeCost LayerCosts::router() const { return gemm(n_sp_, experts_, h_); }

ComputeCost LayerCosts::experts_in() const {
  const double copies = d(n_ * top_k_) * capacity_;
  const auto rows = static_cast<std::uint64_t>(std::ceil(copies / d(local_experts_)));
  ComputeCost c = gemm(rows, fe_in_t_, h_, local_experts_);
  c.flops = 2.0 * copies * d(fe_in_t_ * h_);
  c.bytes += 2.0 * copies * d(fe_in_t_ + fe_t_);
  if (shared_ > 0) {
    const ComputeCost s = gemm(n_, shared_ * fe_in_t_, h_);
    c.flops += s.flops;
    c.bytes += s.bytes + 2.0 * d(n_ * shared_ * (fe_in_t_ + fe_t_));
  }
  c.kernels = shared_ > 0 ? 4 : 2;
  return c;
}

ComputeCost LayerCosts::experts_out() const {
  const double copies = d(n_ * top_k_) * capacity_;
  const auto rows = static_cast<std::uint64_t>(std::ceil(copies / d(local_experts_)));
  ComputeCost c = gemm(rows, h_, fe_t_, local_experts_);
  c.flops = 2.0 * copies * d(h_ * fe_t_);
  if (shared_ > 0) {
    const ComputeCost s = gemm(n_, h_, shared_ * fe_t_);
    c.flops += s.flops;
    c.bytes += s.bytes;
    c.kernels = 2;
  }
  return c;
}

ComputeCost LayerCosts::embedding() const { return elementwise(d(n_ * h_), 0, 4, 1); }

ComputeCost LayerCosts::logits() const { return gemm(n_, vocab_t_, h_); }

ComputeCost LayerCosts::cross_entropy() const { return elementwise(d(n_ * vocab_t_), 5, 6, 2); }

ComputeCost LayerCosts::optimizer(std::uint64_t parameters) const { return elementwise(d(parameters), 12, 28, 1); }

ComputeCost LayerCosts::backward(ComputeCost forward) {
  forward.flops *= 2;
  forward.bytes *= 2;
  if (forward.m != 0) forward.batch *= 2;
  forward.kernels *= 2;
  return forward;
}

std::uint64_t LayerCosts::dispatch_bytes() const noexcept {
  return static_cast<std::uint64_t>(std::ceil(d(n_sp_ * top_k_) * capacity_)) * h_ * 2;
}

std::uint64_t LayerCosts::expert_gather_bytes() const noexcept {
  return static_cast<std::uint64_t>(std::ceil(d(n_ * top_k_) * capacity_)) * h_ * 2;
}

}  // namespace rackscale::models::workload
