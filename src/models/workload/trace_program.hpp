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
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/hardware.hpp"
#include "models/workload/trace_graph.hpp"
#include "models/workload/trace_spec.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::workload {

enum class ReplayKind : std::uint8_t { none, compute, host, memory, collective, send, recv };

struct ReplayOp {
  ReplayKind kind = ReplayKind::none;
  std::uint64_t node = 0;            // the trace node's id
  pdes::SimTime duration = 0;        // compute, host, memory
  // collective
  accelerator::CollectiveKind collective = accelerator::CollectiveKind::all_reduce;
  std::uint32_t group = 0;           // into TraceProgram::groups
  std::uint32_t key = 0;             // the call's key, identical on every member
  // collective: the size nccl-tests reports (Chakra's comm_size); send / recv: the payload
  std::uint64_t bytes = 0;
  // send / recv
  std::uint32_t peer_device = 0;
  std::uint64_t match = 0;           // identical on the send and its receive, below 2^39
  std::int64_t tag = 0;              // the trace's comm_tag: names the message's flow (its ECMP path)
  std::uint32_t first_dependency = 0;  // into TraceProgram::dependencies
  std::uint32_t dependency_count = 0;
};

// One collective's members: devices in the group's rank order, and this device's place among them.
struct ReplayGroup {
  std::vector<std::uint32_t> members;
  std::uint32_t rank = 0;
};

// A send or receive as the cross-rank check of unmatched point-to-point messages sees it.
struct PointToPoint {
  std::uint32_t source = 0;       // traced ranks
  std::uint32_t destination = 0;
  std::int64_t tag = 0;
  std::uint64_t node = 0;         // the node, for the error
  bool send = true;
};

struct TraceProgram {
  std::uint32_t rank = 0;                 // the traced rank
  std::vector<ReplayOp> ops;              // every op after its dependencies
  std::vector<std::uint32_t> dependencies;
  std::vector<ReplayGroup> groups;
  std::vector<PointToPoint> point_to_point;  // in op order
};

// Throws TraceGraphError naming the node at fault: a dependency cycle, a missing or repeated node, a
// collective with no comm_type, a peer or process-group member that is not a traced rank, a process
// group with no membership in the trace's metadata or without this rank.
[[nodiscard]] TraceProgram build_trace_program(const TraceGraph& graph, std::uint32_t rank, const TraceWorkloadSpec& spec,
                                               const AcceleratorSpec& accelerator);

// Chakra's collective as the rackscale collective that replays it: reduce_scatter_block is a
// reduce-scatter; a barrier is an all-reduce of one float, as PyTorch's barrier is.
[[nodiscard]] accelerator::CollectiveKind replay_collective(TraceCollective kind) noexcept;
inline constexpr std::uint64_t kBarrierBytes = 4;

}  // namespace rackscale::models::workload
