#pragma once
// The trace workload (docs/traces.md): a recorded job replayed from one execution trace per traced rank.
#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/trace_graph.hpp"

namespace rackscale::models::workload {

// What happens to host-side operators (Chakra's is_cpu_op): `skip` gives them no time (their
// dependencies still order the nodes around them), as ASTRA-sim does; `serialize` runs them for their
// measured duration one at a time on the device's host thread, beside the device's own work.
enum class CpuOps : std::uint8_t { skip, serialize };

struct TraceWorkloadSpec {
  std::string format = "chakra";
  // The traces, "%d" standing for the traced rank (0, 1, ...), resolved against the config's directory.
  std::string files;
  std::uint32_t ranks = 0;               // traced ranks: the files the loader found (by role: the rank map's)
  // By role (docs/traces.md, "One trace per role"): the rank map file, and the role of each traced rank
  // from it; `files`' %d is then the role. Empty: one trace per traced rank.
  std::string rank_map;
  std::vector<std::uint32_t> role_of;
  std::vector<std::uint32_t> mapping;    // traced rank r runs on device mapping[r]; empty: device r
  ControlDependencies control_dependencies = ControlDependencies::honor;
  CpuOps cpu_ops = CpuOps::skip;

  [[nodiscard]] bool by_role() const noexcept { return !rank_map.empty(); }
  // The trace traced rank `rank` replays: its own, or by role its role's.
  [[nodiscard]] std::string file_of(std::uint32_t rank) const { return by_role() ? role_file(role_of[rank]) : numbered(rank); }
  [[nodiscard]] std::string role_file(std::uint32_t role) const { return numbered(role); }
  // `files` with %d replaced by n.
  [[nodiscard]] std::string numbered(std::uint32_t n) const;
  [[nodiscard]] std::uint32_t device_of(std::uint32_t rank) const { return mapping.empty() ? rank : mapping[rank]; }
};

}  // namespace rackscale::models::workload
