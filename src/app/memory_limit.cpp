#include "app/memory_limit.hpp"

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "io/config/units.hpp"

namespace rackscale::app {
namespace {

std::optional<std::uint64_t> whole_number(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

std::optional<std::string> read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return trimmed(line);
}

// A cgroup's memory limit file: a number of bytes, or "max" (v2) or a value near 2^63 (v1) for none.
std::optional<std::uint64_t> cgroup_limit(const std::string& file) {
  const auto line = read_first_line(file);
  if (!line || *line == "max") return std::nullopt;
  const auto value = whole_number(*line);
  if (!value || *value >= (std::uint64_t{1} << 62)) return std::nullopt;
  return value;
}

void take_smaller(std::optional<MemoryLimit>& best, std::uint64_t bytes, std::string source) {
  if (!best || bytes < best->bytes) best = MemoryLimit{bytes, std::move(source)};
}

// The limits of this process's cgroup and its ancestors (a job's limit may sit on a parent).
void cgroup_limits(std::optional<MemoryLimit>& best) {
  if (const char* file = std::getenv("RACKSCALE_CGROUP_MEMORY_FILE")) {
    if (const auto bytes = cgroup_limit(file)) take_smaller(best, *bytes, fmt::format("the cgroup limit in {}", file));
    return;
  }
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // v2: "0::/path"; v1: "7:memory:/path" (or "7:cpu,memory:/path").
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    const bool v2 = line.substr(0, first) == "0" && controllers.empty();
    bool v1 = false;
    std::stringstream list(controllers);
    for (std::string c; std::getline(list, c, ',');) v1 = v1 || c == "memory";
    if (!v2 && !v1) continue;
    const std::string root = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
    const char* name = v2 ? "memory.max" : "memory.limit_in_bytes";
    for (;;) {
      const std::string file = root + (path == "/" ? std::string() : path) + "/" + name;
      if (const auto bytes = cgroup_limit(file))
        take_smaller(best, *bytes, fmt::format("the cgroup {} limit in {}", v2 ? "v2" : "v1", file));
      if (path.empty() || path == "/") break;
      const auto slash = path.rfind('/');
      path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
  }
}

// Slurm gives megabytes (its --mem and --mem-per-cpu in MiB).
void slurm_limits(std::optional<MemoryLimit>& best) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  if (const char* per_node = std::getenv("SLURM_MEM_PER_NODE")) {
    if (const auto mb = whole_number(per_node); mb && *mb > 0)
      take_smaller(best, *mb * kMiB, fmt::format("SLURM_MEM_PER_NODE={} (MiB)", per_node));
  }
  const char* per_cpu = std::getenv("SLURM_MEM_PER_CPU");
  const char* cpus = std::getenv("SLURM_CPUS_ON_NODE");
  if (per_cpu != nullptr && cpus != nullptr) {
    const auto mb = whole_number(per_cpu);
    const auto n = whole_number(cpus);
    if (mb && n && *mb > 0 && *n > 0)
      take_smaller(best, *mb * *n * kMiB,
                   fmt::format("SLURM_MEM_PER_CPU={} (MiB) x SLURM_CPUS_ON_NODE={}", per_cpu, cpus));
  }
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view text) {
  static constexpr std::pair<char, unsigned> kSlurmSuffixes[] = {{'K', 10}, {'M', 20}, {'G', 30}, {'T', 40}};
  std::optional<std::uint64_t> bytes = whole_number(text);
  if (!bytes && !text.empty()) {
    for (const auto& [suffix, shift] : kSlurmSuffixes) {
      if (text.back() != suffix) continue;
      const auto number = whole_number(text.substr(0, text.size() - 1));
      if (number && *number <= (std::numeric_limits<std::uint64_t>::max() >> shift)) bytes = *number << shift;
    }
  }
  if (!bytes) {
    try {
      bytes = io::parse_bytes(text);
    } catch (const io::UnitError&) {
    }
  }
  if (!bytes || *bytes == 0)
    throw std::invalid_argument(fmt::format(
        "expected a memory size such as 4G, 512M (K, M, G, T: powers of 1024, as Slurm's --mem), 16GiB or 4GB, "
        "above zero; found '{}'",
        text));
  return *bytes;
}

void add_max_memory_option(CLI::App& command, std::uint64_t& bytes) {
  command
      .add_option_function<std::string>(
          "--max-memory",
          [&bytes](const std::string& text) {
            try {
              bytes = parse_memory_size(text);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError("--max-memory", e.what());
            }
          },
          "Refuse, before building anything, a run whose estimated memory does not fit in SIZE per node (all "
          "ranks of the run on a node together; the cgroup's and Slurm's limits apply too): 4G, 512M, 16GiB")
      ->type_name("SIZE");
}

std::optional<MemoryLimit> find_memory_limit(std::uint64_t max_memory_option) {
  std::optional<MemoryLimit> best;
  if (max_memory_option > 0) best = MemoryLimit{max_memory_option, "--max-memory"};
  cgroup_limits(best);
  slurm_limits(best);
  return best;
}

}  // namespace rackscale::app
