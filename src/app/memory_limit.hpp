#pragma once
// The memory a run may use on one node, and where that limit comes from (docs/reliability.md,
// "Memory"): `--max-memory`, the job's cgroup (v2 memory.max, v1 memory.limit_in_bytes) and Slurm's
// SLURM_MEM_PER_NODE or SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE. The smallest applies. Each is a limit
// for every process of the job on the node together, as Slurm's --mem is.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace rackscale::app {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  std::string source;  // "--max-memory", "cgroup v2 /sys/fs/cgroup/job/memory.max", "SLURM_MEM_PER_NODE=4000"
};

// "4G", "512M" (K, M, G, T: powers of 1024, as Slurm's --mem), "16GiB", "4GB", "1048576" (bytes).
// Throws std::invalid_argument "expected ...; found ..." otherwise, or for zero.
[[nodiscard]] std::uint64_t parse_memory_size(std::string_view text);

// --max-memory SIZE on `command`, into `bytes` (0: not given); a bad size is a parse error (exit 2).
void add_max_memory_option(CLI::App& command, std::uint64_t& bytes);

// The smallest of the limits that apply to this process, or nullopt when none does. The cgroup is
// found through /proc/self/cgroup; RACKSCALE_CGROUP_MEMORY_FILE names a file to read instead of it
// (for tests: its content is in memory.max's format, a number of bytes or "max").
[[nodiscard]] std::optional<MemoryLimit> find_memory_limit(std::uint64_t max_memory_option);

}  // namespace rackscale::app
