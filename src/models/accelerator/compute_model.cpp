#include "models/accelerator/compute_model.hpp"

#include <algorithm>
#include <cmath>

namespace rackscale::models::accelerator {

double peak_flops(const AcceleratorSpec& a, DType dtype) noexcept {
  switch (dtype) {
    case DType::fp8: return a.peak_fp8_flops > 0 ? a.peak_fp8_flops : a.peak_bf16_flops;
    case DType::fp32: return a.peak_bf16_flops / 2;
    case DType::bf16: break;
  }
  return a.peak_bf16_flops;
}

double matmul_efficiency(const AcceleratorSpec& a, const ComputeCost& cost) noexcept {
  if (cost.m == 0 || cost.n == 0 || cost.k == 0) return 1.0;
  const auto factor = [&](std::uint32_t d) { return static_cast<double>(d) / (static_cast<double>(d) + a.matmul_half_dimension); };
  return factor(cost.m) * factor(cost.n) * factor(cost.k);
}

pdes::SimTime compute_time(const AcceleratorSpec& a, const ComputeCost& cost) noexcept {
  const bool matmul = cost.m != 0 && cost.n != 0 && cost.k != 0;
  const double rate = matmul ? peak_flops(a, cost.dtype) * a.matmul_efficiency * matmul_efficiency(a, cost)
                             : a.peak_bf16_flops * a.vector_efficiency;
  const double flop_seconds = rate > 0 ? cost.flops / rate : 0.0;
  const double byte_seconds = a.memory_bandwidth > 0 ? cost.bytes / (a.memory_bandwidth * a.memory_efficiency) : 0.0;
  const double seconds = std::max(flop_seconds, byte_seconds);
  return static_cast<pdes::SimTime>(cost.kernels) * a.kernel_overhead +
         static_cast<pdes::SimTime>(std::llround(seconds * static_cast<double>(pdes::kSecond)));
}

}  // namespace rackscale::models::accelerator
