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
  std::uint32_t ranks = 0;               // traced ranks: the files the loader found
  std::vector<std::uint32_t> mapping;    // traced rank r runs on device mapping[r]; empty: device r
  ControlDependencies control_dependencies = ControlDependencies::honor;
  CpuOps cpu_ops = CpuOps::skip;

  [[nodiscard]] std::string file_of(std::uint32_t rank) const;
  [[nodiscard]] std::uint32_t device_of(std::uint32_t rank) const { return mapping.empty() ? rank : mapping[rank]; }
};

}  // namespace rackscale::models::workload
