#include "models/workload/trace_program.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/accelerator/compute_model.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/vocabulary/message_tags.hpp"

namespace rackscale::models::workload {
namespace {

using accelerator::CollectiveKind;

constexpr pdes::SimTime kPicosecondsPerMicrosecond = 1'000'000;
// Match ids of point-to-point messages: bit 39 of the tag marks the receiver's acknowledgement.
constexpr std::uint64_t kMatchMask = (std::uint64_t{1} << 39) - 1;

std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The k-th message from `source` to `destination` with `tag`: the same id on both ends, computed
// without either end seeing the other's trace.
std::uint64_t match_of(std::uint32_t source, std::uint32_t destination, std::int64_t tag, std::uint64_t k) noexcept {
  std::uint64_t h = mix(source);
  h = mix(h ^ destination);
  h = mix(h ^ static_cast<std::uint64_t>(tag));
  return mix(h ^ k) & kMatchMask;
}

// The key of a group's n-th collective (TraceProgram::key_of).
std::uint32_t collective_key(std::uint64_t fingerprint, std::uint64_t n) noexcept {
  return static_cast<std::uint32_t>(mix(fingerprint ^ mix(n)) % accelerator::kCollectiveKeyLimit);
}

// rackscale's exact duration where the trace has it (exported traces), else the measured microseconds.
pdes::SimTime measured(const TraceNode& node) {
  return node.duration_ps > 0 ? node.duration_ps : node.duration_micros * kPicosecondsPerMicrosecond;
}

[[noreturn]] void fail(const TraceNode& node, const std::string& message) {
  throw TraceGraphError(node.id, fmt::format("node {}: {}", node.id, message));
}

// What each op is, once per trace (ReplayTrace).
class TraceBuilder {
 public:
  TraceBuilder(const TraceGraph& graph, const TraceWorkloadSpec& spec, const AcceleratorSpec& accelerator)
      : graph_(graph), spec_(spec), accelerator_(accelerator) {}

  std::shared_ptr<const ReplayTrace> build() {
    auto trace = std::make_shared<ReplayTrace>();
    trace_ = trace.get();
    trace->edges = replay_edges(graph_, spec_.control_dependencies);
    trace->ops.reserve(trace->edges->order.size());
    for (const std::uint32_t index : trace->edges->order) trace->ops.push_back(op_of(index));
    return trace;
  }

 private:
  ReplayOp op_of(std::uint32_t index) {
    const TraceNode& node = graph_.nodes[index];
    ReplayOp op;
    op.node = node.id;
    if (node.cpu_op) {
      if (spec_.cpu_ops == CpuOps::serialize) {
        op.kind = ReplayKind::host;
        op.duration = measured(node);
      }
      return op;
    }
    switch (node.kind) {
      case TraceNodeKind::metadata:
        break;
      case TraceNodeKind::compute:
        op.kind = ReplayKind::compute;
        op.duration = node.duration_micros > 0 || node.duration_ps > 0 ? measured(node) : modelled(node);
        break;
      case TraceNodeKind::memory_load:
      case TraceNodeKind::memory_store:
        op.kind = ReplayKind::memory;
        op.duration = node.duration_micros > 0 || node.duration_ps > 0 ? measured(node)
                                               : accelerator::compute_time(accelerator_, {.bytes = static_cast<double>(node.tensor_bytes)});
        break;
      case TraceNodeKind::collective:
        collective(index, op);
        break;
      case TraceNodeKind::send:
      case TraceNodeKind::recv:
        op.kind = node.kind == TraceNodeKind::send ? ReplayKind::send : ReplayKind::recv;
        op.bytes = node.comm_bytes;
        op.tag = node.tag;
        op.index = static_cast<std::uint32_t>(trace_->point_to_point.size());
        trace_->point_to_point.push_back(static_cast<std::uint32_t>(trace_->ops.size()));
        break;
    }
    return op;
  }

  // A kernel the trace did not time: the compute model's time for its FLOPs and bytes. With no shape
  // recorded, its FLOPs run at the model's non-matrix rate.
  pdes::SimTime modelled(const TraceNode& node) const {
    if (node.flops <= 0 && node.tensor_bytes == 0) return 0;
    accelerator::ComputeCost cost;
    cost.flops = node.flops;
    cost.bytes = static_cast<double>(node.tensor_bytes);
    return accelerator::compute_time(accelerator_, cost);
  }

  void collective(std::uint32_t index, ReplayOp& op) {
    const TraceNode& node = graph_.nodes[index];
    if (!node.collective)
      fail(node, fmt::format("collective '{}': expected attribute comm_type (which collective it is), found none",
                             node.name));
    op.kind = ReplayKind::collective;
    op.collective = replay_collective(*node.collective);
    op.bytes = *node.collective == TraceCollective::barrier ? kBarrierBytes : node.comm_bytes;
    const auto [known, added] = group_index_.try_emplace(node.process_group, static_cast<std::uint32_t>(issued_.size()));
    if (added) {
      trace_->groups.push_back({node.process_group, index});
      issued_.push_back(0);
    }
    op.group = known->second;
    op.index = issued_[op.group]++;
  }

  const TraceGraph& graph_;
  const TraceWorkloadSpec& spec_;
  const AcceleratorSpec& accelerator_;
  ReplayTrace* trace_ = nullptr;
  std::map<std::string, std::uint32_t> group_index_;
  std::vector<std::uint32_t> issued_;  // per group: collectives so far
};

// What one rank replaying a trace has of its own: its groups' members and its peers (TraceProgram).
class ProgramBuilder {
 public:
  ProgramBuilder(const TraceGraph& graph, std::uint32_t rank, const TraceWorkloadSpec& spec)
      : graph_(graph), spec_(spec) {
    program_.rank = rank;
  }

  TraceProgram build(std::shared_ptr<const ReplayTrace> trace) {
    const ReplayTrace& t = *trace;
    program_.groups.reserve(t.groups.size());
    for (const ReplayTrace::GroupUse& use : t.groups) program_.groups.push_back(group_of(use));
    program_.peers.reserve(t.point_to_point.size());
    program_.point_to_point.reserve(t.point_to_point.size());
    for (const std::uint32_t op : t.point_to_point) point_to_point(graph_.nodes[t.edges->order[op]]);
    program_.trace = std::move(trace);
    return std::move(program_);
  }

 private:
  std::uint32_t device_of(const TraceNode& node, std::int64_t rank, const char* what) const {
    if (rank < 0 || static_cast<std::uint64_t>(rank) >= spec_.ranks)
      fail(node, fmt::format("{}: expected a traced rank from 0 to {}, found {}", what, spec_.ranks - 1, rank));
    return spec_.device_of(static_cast<std::uint32_t>(rank));
  }

  ReplayGroup group_of(const ReplayTrace::GroupUse& use) const {
    ReplayGroup group;
    const std::string& name = use.name;
    const TraceNode& node = graph_.nodes[use.first];  // errors name it
    if (spec_.by_role() && !name.empty()) {
      const StridedGroup& strided = strided_group(node, name, "pg_name");
      group.rank = place_in(strided, program_.rank);
      for (std::uint32_t place = 0; place < strided.size; ++place)
        group.members.push_back(device_of(node, static_cast<std::int64_t>(member_at(strided, program_.rank, place)),
                                          ("process group '" + name + "'").c_str()));
    } else if (name.empty()) {
      for (std::uint32_t r = 0; r < spec_.ranks; ++r) group.members.push_back(spec_.device_of(r));
      group.rank = program_.rank;
    } else {
      const auto members = graph_.process_groups.find(name);
      if (members == graph_.process_groups.end())
        fail(node,
             fmt::format("pg_name '{}': expected its ranks in the trace's GlobalMetadata (attribute pg_ranks:{}), found none",
                         name, name));
      bool found = false;
      for (const std::uint32_t r : members->second) {
        if (r == program_.rank) {
          group.rank = static_cast<std::uint32_t>(group.members.size());
          found = true;
        }
        group.members.push_back(device_of(node, r, ("process group '" + name + "'").c_str()));
      }
      if (!found)
        fail(node,
             fmt::format("pg_name '{}': expected a group with traced rank {} (this trace's), found ranks {}", name,
                         program_.rank, fmt::join(members->second, ", ")));
    }
    group.fingerprint = collectives::members_fingerprint(group.members);
    return group;
  }

  // A role trace's group `name` for this rank (role_trace.hpp); `what` names the attribute that uses it.
  const StridedGroup& strided_group(const TraceNode& node, const std::string& name, const char* what) const {
    const auto found = graph_.strided_groups.find(name);
    if (found == graph_.strided_groups.end())
      fail(node, fmt::format("{} '{}': expected the group relative to the rank in a role trace's GlobalMetadata "
                             "(attribute pg_stride:{}), found none",
                             what, name, name));
    return found->second;
  }

  // The peer of a send or receive: the trace's absolute rank, or by role the member of a group relative
  // to this rank.
  std::int64_t peer_of(const TraceNode& node) const {
    if (!spec_.by_role()) return *node.peer;
    if (node.peer_group.empty())
      fail(node, fmt::format("{}: expected its peer relative to the rank in a role trace (attributes comm_peer_pg and "
                             "comm_peer_step), found none",
                             node.kind == TraceNodeKind::send ? "send" : "receive"));
    return static_cast<std::int64_t>(
        member_after(strided_group(node, node.peer_group, "comm_peer_pg"), program_.rank, node.peer_step));
  }

  void point_to_point(const TraceNode& node) {
    const bool send = node.kind == TraceNodeKind::send;
    const std::int64_t peer_rank = peer_of(node);
    ReplayPeer peer;
    peer.device = device_of(node, peer_rank, spec_.by_role() ? "attribute comm_peer_pg's member"
                                            : send                  ? "attribute comm_dst"
                                                                    : "attribute comm_src");
    const auto other = static_cast<std::uint32_t>(peer_rank);
    const std::uint32_t source = send ? program_.rank : other;
    const std::uint32_t destination = send ? other : program_.rank;
    const std::uint64_t k = occurrences_[{source, destination, node.tag}]++;
    peer.match = match_of(source, destination, node.tag, k);
    program_.peers.push_back(peer);
    program_.point_to_point.push_back({source, destination, node.tag, node.id, send});
  }

  const TraceGraph& graph_;
  const TraceWorkloadSpec& spec_;
  TraceProgram program_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::int64_t>, std::uint64_t> occurrences_;
};

}  // namespace

std::shared_ptr<const ReplayEdges> replay_edges(const TraceGraph& graph, ControlDependencies control) {
  auto edges = std::make_shared<ReplayEdges>();
  edges->order = graph.dependency_order(control);
  const std::vector<std::uint32_t>& order = edges->order;
  const auto n = static_cast<std::uint32_t>(order.size());
  std::unordered_map<std::uint64_t, std::uint32_t> op_of_id;
  op_of_id.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) op_of_id.emplace(graph.nodes[order[i]].id, i);
  std::vector<ReplayLinks>& links = edges->links;
  links.reserve(n + 1);
  std::vector<std::uint32_t> deps;
  for (const std::uint32_t index : order) {
    const TraceNode& node = graph.nodes[index];
    deps.clear();
    for (const std::uint64_t d : node.data_dependencies) deps.push_back(op_of_id.at(d));
    if (control == ControlDependencies::honor)
      for (const std::uint64_t d : node.control_dependencies) deps.push_back(op_of_id.at(d));
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    links.push_back({static_cast<std::uint32_t>(edges->dependencies.size()), 0});
    edges->dependencies.insert(edges->dependencies.end(), deps.begin(), deps.end());
  }
  links.push_back({static_cast<std::uint32_t>(edges->dependencies.size()), 0});
  // The dependency lists turned around (compressed rows): each op's dependents, ascending since the ops
  // are visited in order.
  for (const std::uint32_t d : edges->dependencies) ++links[d + 1].first_dependent;
  for (std::uint32_t i = 0; i < n; ++i) links[i + 1].first_dependent += links[i].first_dependent;
  std::vector<std::uint32_t> fill(n);
  for (std::uint32_t i = 0; i < n; ++i) fill[i] = links[i].first_dependent;
  edges->dependents.resize(edges->dependencies.size());
  for (std::uint32_t i = 0; i < n; ++i)
    for (const std::uint32_t d : edges->dependencies_of(i)) edges->dependents[fill[d]++] = i;
  return edges;
}

CollectiveKind replay_collective(TraceCollective kind) noexcept {
  switch (kind) {
    case TraceCollective::all_reduce: return CollectiveKind::all_reduce;
    case TraceCollective::reduce: return CollectiveKind::reduce;
    case TraceCollective::all_gather: return CollectiveKind::all_gather;
    case TraceCollective::gather: return CollectiveKind::gather;
    case TraceCollective::scatter: return CollectiveKind::scatter;
    case TraceCollective::broadcast: return CollectiveKind::broadcast;
    case TraceCollective::all_to_all: return CollectiveKind::all_to_all;
    case TraceCollective::reduce_scatter:
    case TraceCollective::reduce_scatter_block: return CollectiveKind::reduce_scatter;
    case TraceCollective::barrier: return CollectiveKind::all_reduce;
  }
  return CollectiveKind::all_reduce;
}

std::shared_ptr<const ReplayTrace> replay_trace(const TraceGraph& graph, const TraceWorkloadSpec& spec,
                                                const AcceleratorSpec& accelerator) {
  return TraceBuilder(graph, spec, accelerator).build();
}

TraceProgram build_trace_program(const TraceGraph& graph, std::shared_ptr<const ReplayTrace> trace, std::uint32_t rank,
                                 const TraceWorkloadSpec& spec) {
  return ProgramBuilder(graph, rank, spec).build(std::move(trace));
}

std::uint32_t TraceProgram::key_of(const ReplayOp& op) const noexcept {
  return collective_key(groups[op.group].fingerprint, op.index);
}

}  // namespace rackscale::models::workload
