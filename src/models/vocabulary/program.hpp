#pragma once
// A device program: the ops one device runs in one training iteration, with their dependencies.
//
// Ops sit on streams, as CUDA kernels do: ops on one stream run one after another in program order;
// ops on different streams overlap. An op starts when the op before it on its stream has finished and
// every op it depends on has finished. Compute ops occupy the device's compute units (at most one
// compute op runs at a time, whatever its stream); collective, send and receive ops occupy the network.
//
// Programs are shared: every device with the same role (pipeline stage, and virtual stage with
// interleaving) runs the same program. Ops therefore name their communication partners symbolically
// (a group kind, "the next pipeline stage") and each device resolves them from its own coordinates.
//
// Part of the models' shared vocabulary (src/layers.cmake), below the collectives and the accelerator so
// that both name these ops without including each other; the namespace stays the accelerator's, whose
// instruction set they are.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace rackscale::models::accelerator {

using OpIndex = std::uint32_t;

enum class OpKind : std::uint8_t {
  compute,     // kernels on the device
  collective,  // a collective over a group of devices
  send,        // point-to-point send to a pipeline or context-ring neighbour
  recv,        // point-to-point receive from a pipeline or context-ring neighbour
};

// What the time of a compute op counts as (the time breakdown of a run).
enum class Phase : std::uint8_t { forward, backward, recompute, optimizer, other };

enum class DType : std::uint8_t { bf16, fp8, fp32 };

// Cost of a compute op. `flops` and `bytes` (HBM traffic) drive the roofline; a matrix product also
// gives its shape (m x k times k x n, counted `batch` times), which sets how close to peak it runs.
struct ComputeCost {
  double flops = 0;
  double bytes = 0;
  DType dtype = DType::bf16;
  std::uint32_t m = 0, n = 0, k = 0;  // 0: not a matrix product (element-wise, softmax, norms, ...)
  std::uint32_t batch = 1;            // independent matrix products of this shape (e.g. attention heads)
  std::uint32_t kernels = 1;          // kernel launches it stands for (launch overhead each)
};

// Training programs use the first five (their tallies, accelerator/device_executor.hpp, have a column for
// each); reduce, gather, scatter and sendrecv run in collective sweeps (nccl-tests' other benchmarks).
enum class CollectiveKind : std::uint8_t {
  all_reduce,
  reduce_scatter,
  all_gather,
  broadcast,
  all_to_all,
  reduce,    // to a root, along a pipelined chain
  gather,    // to a root, every member's part as a point-to-point send
  scatter,   // from a root, a part to every member as a point-to-point send
  sendrecv,  // every member sends to the next and receives from the previous
};

// Collectives with a root: the member that holds the data (broadcast, scatter) or ends with the result
// (reduce, gather).
[[nodiscard]] constexpr bool has_root(CollectiveKind kind) noexcept {
  return kind == CollectiveKind::broadcast || kind == CollectiveKind::reduce || kind == CollectiveKind::gather ||
         kind == CollectiveKind::scatter;
}
// Collectives that nccl-tests (and NCCL's all-to-all) build from grouped point-to-point sends and receives,
// outside NCCL's ring and tree algorithms and its cost model.
[[nodiscard]] constexpr bool is_point_to_point(CollectiveKind kind) noexcept {
  return kind == CollectiveKind::all_to_all || kind == CollectiveKind::gather || kind == CollectiveKind::scatter ||
         kind == CollectiveKind::sendrecv;
}
// Collectives that combine the members' data with a reduction operation (sum, max, ...).
[[nodiscard]] constexpr bool reduces(CollectiveKind kind) noexcept {
  return kind == CollectiveKind::all_reduce || kind == CollectiveKind::reduce_scatter ||
         kind == CollectiveKind::reduce;
}

// The group a collective runs over, relative to the device that runs it.
enum class GroupKind : std::uint8_t {
  tensor,        // the TP group (with sequence parallelism, the same devices)
  data,          // the DP group (with ZeRO, shards live here)
  context,       // the CP group (ring attention)
  expert,        // the EP group (token dispatch and combine)
  expert_data,   // the DP group of expert weights (DP x CP / EP replicas)
  pipeline,      // every stage of this device's pipeline (rarely used: embedding ties)
  world,         // every device of the job
};
inline constexpr std::size_t kGroupKinds = static_cast<std::size_t>(GroupKind::world) + 1;

// The neighbour of a send / recv: the next or previous pipeline stage (activations and gradients), or
// the next or previous device of the context-parallel ring (ring attention's key/value blocks).
enum class Peer : std::uint8_t { next_stage, previous_stage, next_context, previous_context };

// A pipeline transfer (waiting for one is pipeline bubble), not a context-ring one (exposed communication).
[[nodiscard]] constexpr bool is_pipeline_peer(Peer peer) noexcept {
  return peer == Peer::next_stage || peer == Peer::previous_stage;
}

// Collective algorithm; `automatic` lets the collectives model choose as NCCL would.
enum class Algorithm : std::uint8_t { automatic, ring, tree, halving_doubling, hierarchical, nvls };

struct Op {
  OpKind kind = OpKind::compute;
  std::uint8_t stream = 0;   // 0: compute; others: communication streams
  Phase phase = Phase::other;
  std::uint32_t first_dependency = 0;  // into Program::dependencies
  std::uint32_t dependency_count = 0;
  // compute
  ComputeCost cost;
  // collective / send / recv
  CollectiveKind collective = CollectiveKind::all_reduce;
  GroupKind group = GroupKind::tensor;
  Algorithm algorithm = Algorithm::automatic;
  Peer peer = Peer::next_stage;
  std::uint64_t bytes = 0;   // collective: the buffer size as nccl-tests counts it; send/recv: payload
  std::uint32_t match = 0;   // send/recv: the same value on both ends identifies the transfer
  // where it comes from, for traces and breakdowns
  std::uint32_t layer = 0;
  std::uint32_t micro_batch = 0;
  std::string_view label;    // static string: "attention", "mlp", "tp all-reduce", ...
};

struct Program {
  std::vector<Op> ops;
  std::vector<OpIndex> dependencies;  // ops[i] depends on dependencies[first .. first + count)
  std::string role;                   // "stage 3 of 16", for messages and traces

  // Appends an op that depends on `deps`; returns its index.
  OpIndex add(Op op, std::initializer_list<OpIndex> deps = {});
  OpIndex add(Op op, const std::vector<OpIndex>& deps);
};

}  // namespace rackscale::models::accelerator
