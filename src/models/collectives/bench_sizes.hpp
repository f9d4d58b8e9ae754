#pragma once
// The buffer arithmetic of nccl-tests (NVIDIA/nccl-tests), so that a simulated sweep reports the sizes,
// element counts, data types and reduction operations a real log has: the sizes a sweep steps through
// (-b, -e, -f, -i), and for each the element count a rank passes to NCCL and the size nccl-tests prints.
//
// nccl-tests turns a size into count = size / sizeof(type) elements; the ops that split the buffer over
// the ranks (all_gather, reduce_scatter, alltoall, gather, scatter) pass count / p elements per rank
// and print p of those parts, so their printed size is rounded down to a multiple of p x sizeof(type)
// (and is 0 where the size is below it, as in a real log).
#include <cstdint>
#include <string_view>
#include <vector>

#include "models/vocabulary/program.hpp"

namespace rackscale::models::collectives {

// nccl-tests' -d types, by its names.
enum class DataType : std::uint8_t { int8, uint8, int32, uint32, int64, uint64, half, float32, float64, bfloat16,
                                     f8e4m3, f8e5m2 };
// nccl-tests' -o operations (prod, max and min as NCCL names them).
enum class ReduceOp : std::uint8_t { sum, prod, max, min, avg };

[[nodiscard]] std::uint32_t word_bytes(DataType type) noexcept;
[[nodiscard]] std::string_view data_type_name(DataType type) noexcept;  // "float", "bfloat16", ...
[[nodiscard]] std::string_view reduce_op_name(ReduceOp op) noexcept;    // "sum", ...

// The most sizes a sweep may have: each runs an engine of its own, so more would run for hours (nccl-tests
// sweeps have a few dozen).
inline constexpr std::size_t kMaxSweepSizes = 100'000;

// The sizes of a sweep: min_bytes, then times step_factor while at most max_bytes; with a step_factor
// of 1, plus step_bytes instead. Throws std::invalid_argument when there would be more than `limit`
// sizes (the message names the keys).
[[nodiscard]] std::vector<std::uint64_t> sweep_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes,
                                                     std::uint64_t step_factor, std::uint64_t step_bytes,
                                                     std::size_t limit);

// One row of the sweep: what each rank passes to NCCL and what nccl-tests prints.
struct BenchBuffer {
  std::uint64_t count = 0;  // the count column: elements per rank in the call (per peer for alltoall)
  std::uint64_t bytes = 0;  // the size column, and the CollectiveCall's bytes
};
// Whether `op` splits its buffer into one part per rank (so its count is per part).
[[nodiscard]] bool splits_buffer(accelerator::CollectiveKind op) noexcept;
[[nodiscard]] BenchBuffer bench_buffer(accelerator::CollectiveKind op, std::uint64_t size, DataType type,
                                       std::uint32_t ranks) noexcept;

}  // namespace rackscale::models::collectives
