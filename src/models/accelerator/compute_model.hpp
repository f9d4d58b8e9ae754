#pragma once
// How long a compute op takes on an accelerator: a roofline with shape-dependent efficiency.
//
//   t = kernels x overhead + max(flops / (peak(dtype) x efficiency), bytes / (HBM bandwidth x memory_efficiency))
//
// For a matrix product of m x k by k x n (counted `batch` times), efficiency =
//   matmul_efficiency x f(m) x f(n) x f(k),  f(d) = d / (d + matmul_half_dimension),
// so large products run at matmul_efficiency of peak and thin ones (few tokens, small TP shards) below
// it; other ops run their FLOPs at vector_efficiency of the matrix peak and are usually bound by HBM.
// Parameters come from the accelerator preset; docs/models.md states them and their sources.
#include "models/vocabulary/program.hpp"
#include "models/hardware.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::accelerator {

// FLOP/s of the accelerator's matrix units for `dtype` (fp8 falls back to bf16 where unsupported;
// fp32 matrix products run at half the bf16 rate, as TF32 does on NVIDIA parts).
[[nodiscard]] double peak_flops(const AcceleratorSpec& accelerator, DType dtype) noexcept;

// The efficiency factor of a matrix product of this shape (1 for non-matrix ops).
[[nodiscard]] double matmul_efficiency(const AcceleratorSpec& accelerator, const ComputeCost& cost) noexcept;

[[nodiscard]] pdes::SimTime compute_time(const AcceleratorSpec& accelerator, const ComputeCost& cost) noexcept;

}  // namespace rackscale::models::accelerator
