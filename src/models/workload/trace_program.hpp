#pragma once
// One traced rank's trace as the work a device replays (docs/traces.md): the trace's nodes in an order
// where each follows its dependencies, each given what it costs and with whom it communicates.
//
// What a node becomes:
//   compute (not a CPU op)   the device's compute units for its measured duration_micros or, unmeasured
//                            with num_ops / tensor_size, the compute model's time for them
//   CPU op                   nothing (cpu_ops: skip) or the host thread for its duration (serialize)
//   memory load / store      the device's copy engine: measured duration, else tensor_size at the
//                            device's memory bandwidth (the model has no host link)
//   collective               a rackscale collective over its process group (pg_name) or every traced rank
//   send / recv              a point-to-point message to / from the peer rank, matched by tag
//   metadata                 nothing
// Dependencies: data dependencies always, control dependencies unless the spec ignores them.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/hardware.hpp"
#include "models/workload/trace_graph.hpp"
#include "models/workload/trace_spec.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::workload {

enum class ReplayKind : std::uint8_t { none, compute, host, memory, collective, send, recv };

// What an op is: read when it starts and when the report names it, not when its dependencies finish
// (the replay's per-op state while it runs is the device's, trace_device.hpp). The same for every rank
// that replays the trace (ReplayTrace); with whom it communicates is the rank's (TraceProgram).
struct ReplayOp {
  ReplayKind kind = ReplayKind::none;
  accelerator::CollectiveKind collective = accelerator::CollectiveKind::all_reduce;  // collective
  std::uint32_t group = 0;           // collective: into TraceProgram::groups
  // collective: how many of its group's collectives come before it (the call's key derives from this and
  // the members); send / recv: into TraceProgram::peers
  std::uint32_t index = 0;
  std::uint64_t node = 0;            // the trace node's id
  pdes::SimTime duration = 0;        // compute, host, memory
  // collective: the size nccl-tests reports (Chakra's comm_size); send / recv: the payload
  std::uint64_t bytes = 0;
  std::int64_t tag = 0;              // send / recv: the trace's comm_tag; names the message's flow (its ECMP path)
};

// A send's or receive's other end, as one rank replaying the trace sees it.
struct ReplayPeer {
  std::uint64_t match = 0;           // identical on the send and its receive, below 2^39
  std::uint32_t device = 0;
};

// Where op i's dependencies and dependents start in TraceProgram's flat arrays; they end where op i + 1's
// start. One record for both, so that finishing an op reads one line for its edges.
struct ReplayLinks {
  std::uint32_t first_dependency = 0;
  std::uint32_t first_dependent = 0;
};

// One collective's members: devices in the group's rank order, this device's place among them, and the
// members' fingerprint (collectives::members_fingerprint), which the engine would otherwise compute per call.
struct ReplayGroup {
  std::vector<std::uint32_t> members;
  std::uint32_t rank = 0;
  std::uint64_t fingerprint = 0;
};

// A send or receive as the cross-rank check of unmatched point-to-point messages sees it.
struct PointToPoint {
  std::uint32_t source = 0;       // traced ranks
  std::uint32_t destination = 0;
  std::int64_t tag = 0;
  std::uint64_t node = 0;         // the node, for the error
  bool send = true;
};

// A trace's dependencies in replay order: what every rank that replays the trace shares (by role, a
// role's ranks replay one trace: they share one of these, built once).
struct ReplayEdges {
  std::vector<std::uint32_t> order;         // the trace's nodes (indices into TraceGraph::nodes) in op order
  std::vector<ReplayLinks> links;           // per op, and one past the last: the ends of the last op's edges
  std::vector<std::uint32_t> dependencies;  // ops op i waits for, ascending
  std::vector<std::uint32_t> dependents;    // ops that wait for op i, ascending

  [[nodiscard]] std::span<const std::uint32_t> dependencies_of(std::uint32_t op) const noexcept {
    return {dependencies.data() + links[op].first_dependency, dependencies.data() + links[op + 1].first_dependency};
  }
  [[nodiscard]] std::span<const std::uint32_t> dependents_of(std::uint32_t op) const noexcept {
    return {dependents.data() + links[op].first_dependent, dependents.data() + links[op + 1].first_dependent};
  }
};

// A trace prepared for replay once, and shared by every rank that replays it (by role, a role's ranks
// replay one trace): its edges, its ops, the process groups its collectives use (in the order of their
// first use, with the node of that use) and its sends and receives.
struct ReplayTrace {
  struct GroupUse {
    std::string name;                   // pg_name; empty: every traced rank
    std::uint32_t first = 0;            // the first collective over it (into TraceGraph::nodes), for errors
  };
  std::shared_ptr<const ReplayEdges> edges;
  std::vector<ReplayOp> ops;            // every op after its dependencies
  std::vector<GroupUse> groups;         // ReplayOp::group indexes these and TraceProgram::groups alike
  std::vector<std::uint32_t> point_to_point;  // the sends and receives (ops), in op order
};

// One traced rank's replay: the shared trace, and what only this rank has: its process groups' members
// and its sends' and receives' peers.
struct TraceProgram {
  std::uint32_t rank = 0;                 // the traced rank
  std::shared_ptr<const ReplayTrace> trace;
  std::vector<ReplayGroup> groups;
  std::vector<ReplayPeer> peers;          // per send and receive, in op order (ReplayOp::index)
  std::vector<PointToPoint> point_to_point;  // in op order

  [[nodiscard]] std::span<const ReplayOp> ops() const noexcept { return trace->ops; }
  [[nodiscard]] const ReplayEdges& edges() const noexcept { return *trace->edges; }
  [[nodiscard]] const ReplayPeer& peer_of(const ReplayOp& op) const noexcept { return peers[op.index]; }
  // A collective op's call key: the same on every member (members issue a group's collectives in the
  // same order, as NCCL requires), distinct between groups by the members' fingerprint.
  [[nodiscard]] std::uint32_t key_of(const ReplayOp& op) const noexcept;
};

// The replay order of `graph`'s nodes (TraceGraph::dependency_order) and their dependencies as ops.
// Throws TraceGraphError for a dependency cycle, a missing or repeated node.
[[nodiscard]] std::shared_ptr<const ReplayEdges> replay_edges(const TraceGraph& graph, ControlDependencies control);

// `graph` prepared for replay (its edges: replay_edges). Throws TraceGraphError naming the node at fault:
// a dependency cycle, a missing or repeated node, a collective with no comm_type.
[[nodiscard]] std::shared_ptr<const ReplayTrace> replay_trace(const TraceGraph& graph, const TraceWorkloadSpec& spec,
                                                              const AcceleratorSpec& accelerator);

// `rank`'s program from `graph` and `trace` (replay_trace(graph, spec, ...)): its groups' members and its
// peers. Throws TraceGraphError naming the node at fault: a peer or process-group member that is not a
// traced rank, a process group with no membership in the trace's metadata or without this rank.
[[nodiscard]] TraceProgram build_trace_program(const TraceGraph& graph, std::shared_ptr<const ReplayTrace> trace,
                                               std::uint32_t rank, const TraceWorkloadSpec& spec);

// Chakra's collective as the rackscale collective that replays it: reduce_scatter_block is a
// reduce-scatter; a barrier is an all-reduce of one float, as PyTorch's barrier is.
[[nodiscard]] accelerator::CollectiveKind replay_collective(TraceCollective kind) noexcept;
inline constexpr std::uint64_t kBarrierBytes = 4;

}  // namespace rackscale::models::workload
