#pragma once
// One traced rank's work as a dependency graph: what an execution trace (Chakra ET, docs/traces.md)
// records, in the models' own vocabulary and without the file format. The trace workload turns it into
// a device program; the exporter builds it from one.
//
// Node kinds, collective kinds and attribute meanings follow Chakra's schema (data/reference/chakra_et.md);
// times stay in the trace's own unit (microseconds) until the workload converts them.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/role_trace.hpp"

namespace rackscale::models::workload {

enum class TraceNodeKind : std::uint8_t {
  metadata,      // carries attributes only; takes no time
  memory_load,   // host to device memory transfer of `tensor_bytes`
  memory_store,  // device to host
  compute,       // kernels: `duration_micros` as measured, or `flops` / `tensor_bytes` for the compute model
  send,          // point-to-point to `peer`, matched to the peer's receive by `tag`
  recv,          // point-to-point from `peer`
  collective,    // `collective` over `process_group` (every rank of the trace set when empty)
};

// Chakra's CollectiveCommType, value for value.
enum class TraceCollective : std::uint8_t {
  all_reduce = 0,
  reduce = 1,
  all_gather = 2,
  gather = 3,
  scatter = 4,
  broadcast = 5,
  all_to_all = 6,
  reduce_scatter = 7,
  reduce_scatter_block = 8,
  barrier = 9,
};
inline constexpr std::uint32_t kTraceCollectiveCount = 10;

[[nodiscard]] std::string_view trace_node_kind_name(TraceNodeKind kind) noexcept;
[[nodiscard]] std::string_view trace_collective_name(TraceCollective kind) noexcept;

struct TraceNode {
  std::uint64_t id = 0;
  TraceNodeKind kind = TraceNodeKind::compute;
  std::string name;
  bool cpu_op = false;                     // host-side operator: no device time
  std::uint64_t duration_micros = 0;       // measured; 0: not measured
  // rackscale's exact duration in ps (attribute duration_ps, which the exporter writes beside the rounded
  // duration_micros); 0: none. Preferred over duration_micros when present.
  std::uint64_t duration_ps = 0;
  double flops = 0;                        // num_ops
  std::uint64_t tensor_bytes = 0;          // tensor_size
  std::optional<TraceCollective> collective;  // comm_type (collective nodes)
  std::uint64_t comm_bytes = 0;            // comm_size: bytes per rank
  std::optional<std::int64_t> peer;        // comm_dst on a send, comm_src on a receive
  std::int64_t tag = 0;                    // comm_tag
  std::string process_group;               // pg_name; empty: every rank
  // A role trace's peer (role_trace.hpp): the member `peer_step` places after this rank in its group
  // `peer_group` (attributes comm_peer_pg, comm_peer_step); empty: none.
  std::string peer_group;
  std::int64_t peer_step = 0;
  std::vector<std::uint64_t> control_dependencies;
  std::vector<std::uint64_t> data_dependencies;
};

// A graph that is not one: a dependency on a node the trace does not have, a repeated id, a cycle.
// `node` is the id of the node at fault.
class TraceGraphError : public std::runtime_error {
 public:
  TraceGraphError(std::uint64_t node, const std::string& message) : std::runtime_error(message), node_(node) {}
  [[nodiscard]] std::uint64_t node() const noexcept { return node_; }

 private:
  std::uint64_t node_;
};

// Which recorded dependencies order the replay. Data dependencies always do. Control dependencies do by
// default; traces converted from PyTorch record a CPU operator and the kernel it launched as control
// dependencies of each other, and of nodes the converter dropped (data/chakra/README.md), so such a
// trace replays with control dependencies ignored.
enum class ControlDependencies : std::uint8_t { honor, ignore };

struct TraceGraph {
  std::string version;          // the file's schema version, as written
  // Process groups by pg_name: their traced ranks in group rank order. Chakra's schema has no field for
  // them; rackscale reads and writes GlobalMetadata attributes "pg_ranks:NAME" (an integer list).
  std::map<std::string, std::vector<std::uint32_t>> process_groups;
  // A role trace's process groups relative to the rank (role_trace.hpp): GlobalMetadata attributes
  // "pg_stride:NAME" = [stride, size]. A trace replayed by role takes its groups from here.
  std::map<std::string, StridedGroup> strided_groups;
  std::vector<TraceNode> nodes; // in file order

  // The nodes in an order where every node follows all of its dependencies (Kahn's algorithm, ties by
  // file order), as indices into `nodes`. Throws TraceGraphError for a repeated id, a dependency on a
  // missing node or on the node itself, or a cycle (naming the nodes on it).
  [[nodiscard]] std::vector<std::uint32_t> dependency_order(ControlDependencies control = ControlDependencies::honor) const;
};

}  // namespace rackscale::models::workload
