#pragma once
// A collective sweep printed as nccl-tests (NVIDIA/nccl-tests) prints its benchmarks, so that the result
// can be read, parsed and diffed like a real log: the "# nThread ..." line, the devices, the two header
// lines of the table, one row per size with the out-of-place and in-place columns, and the closing
// "# Out of bounds values" and "# Avg bus bandwidth" lines. Every line that is not a row starts with '#'.
//
// What a simulation cannot mirror is said, not invented: one timed call per size (warmup iters 0,
// iters 1), no data to check (validation 0, and #wrong N/A as nccl-tests prints it with -c 0), in-place
// the same call as out-of-place (no data moves, so the two times are equal), and the device lines
// without process ids or PCI bus ids.
#include <string>
#include <string_view>

#include "models/collectives/collective_report.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

// "all_reduce_perf", "alltoall_perf", ...: the nccl-tests binary that runs `op`.
[[nodiscard]] std::string_view nccl_tests_binary(models::accelerator::CollectiveKind op) noexcept;

// The redop and root columns: the reduction's name for ops that reduce, else "none"; the root's rank for
// ops that have one, else -1.
[[nodiscard]] std::string_view nccl_tests_redop(const models::workload::CollectiveBenchSpec& bench) noexcept;
[[nodiscard]] long long nccl_tests_root(const models::workload::CollectiveBenchSpec& bench) noexcept;

// The nccl-tests header: the "# nThread 1 nGpus 1 minBytes ... step: ..." line and "# Using devices"
// with one line per rank (at most 64; beyond that, the first and last few and a line for the rest).
[[nodiscard]] std::string nccl_tests_header(const models::Scenario& scenario,
                                            const models::collectives::CollectiveReport& report);

// The table (its two heading lines, one row per size) and the closing lines.
[[nodiscard]] std::string nccl_tests_table(const models::Scenario& scenario,
                                           const models::collectives::CollectiveReport& report);

// nccl-tests' time column: microseconds with 2 decimals below 100 us, 1 below 10 ms, none above.
[[nodiscard]] std::string nccl_tests_time(double microseconds);

}  // namespace rackscale::io
