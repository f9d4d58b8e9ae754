#include "models/workload/trace_export.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/accelerator/compute_model.hpp"

namespace rackscale::models::workload {
namespace {

using accelerator::CollectiveKind;
using accelerator::GroupKind;
using accelerator::OpKind;

const char* group_name(GroupKind kind) {
  switch (kind) {
    case GroupKind::tensor: return "tensor";
    case GroupKind::data: return "data";
    case GroupKind::context: return "context";
    case GroupKind::expert: return "expert";
    case GroupKind::expert_data: return "expert_data";
    case GroupKind::pipeline: return "pipeline";
    case GroupKind::world: return "world";
  }
  return "group";
}

TraceCollective trace_collective(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_reduce: return TraceCollective::all_reduce;
    case CollectiveKind::reduce_scatter: return TraceCollective::reduce_scatter;
    case CollectiveKind::all_gather: return TraceCollective::all_gather;
    case CollectiveKind::broadcast: return TraceCollective::broadcast;
    case CollectiveKind::all_to_all: return TraceCollective::all_to_all;
    case CollectiveKind::reduce: return TraceCollective::reduce;
    case CollectiveKind::gather: return TraceCollective::gather;
    case CollectiveKind::scatter: return TraceCollective::scatter;
    case CollectiveKind::sendrecv: break;
  }
  throw std::invalid_argument("a sendrecv collective has no Chakra collective type");
}

constexpr pdes::SimTime kPicosecondsPerMicrosecond = 1'000'000;

// The group of `kind` of the exported device, declared in the graph; its name.
std::string declare_group(const accelerator::DeviceRole& role, GroupKind kind, TraceExportForm form,
                          std::uint32_t device, TraceGraph& graph) {
  std::vector<std::uint32_t> members;
  std::uint32_t rank = 0;
  role.group(kind, members, rank);
  if (form == TraceExportForm::per_device) {
    std::string name = fmt::format("{}.{}", group_name(kind), members.front());
    graph.process_groups.try_emplace(name, std::move(members));
    return name;
  }
  std::string name = group_name(kind);
  if (graph.strided_groups.contains(name)) return name;
  const std::optional<StridedGroup> strided = strided_group_of(members, device, rank);
  if (!strided)
    throw std::invalid_argument(fmt::format("device {}: its {} group is not strided (members {} ... {}): it cannot be "
                                            "exported by role",
                                            device, name, members.front(), members.back()));
  graph.strided_groups.emplace(name, *strided);
  graph.process_groups.emplace(name, std::move(members));
  return name;
}

// The device's own place in the job: a role's trace is written from the first device of the role.
std::uint32_t device_of(const accelerator::DeviceRole& role) {
  std::vector<std::uint32_t> members;
  std::uint32_t rank = 0;
  role.group(GroupKind::world, members, rank);
  return members[rank];
}

}  // namespace

TraceGraph export_program(const accelerator::DeviceRole& role, const AcceleratorSpec& accelerator,
                          TraceExportForm form) {
  const accelerator::Program& program = role.program();
  const std::uint32_t device = form == TraceExportForm::by_role ? device_of(role) : 0;
  TraceGraph graph;
  graph.nodes.reserve(program.ops.size());
  std::vector<std::uint64_t> last_on_stream;  // per stream: the node of its latest op (0: none)
  for (std::size_t i = 0; i < program.ops.size(); ++i) {
    const accelerator::Op& op = program.ops[i];
    TraceNode node;
    node.id = i + 1;
    node.name = op.label.empty() ? std::string("op") : std::string(op.label);
    switch (op.kind) {
      case OpKind::compute: {
        node.kind = TraceNodeKind::compute;
        node.duration_ps = accelerator::compute_time(accelerator, op.cost);
        node.duration_micros = (node.duration_ps + kPicosecondsPerMicrosecond / 2) / kPicosecondsPerMicrosecond;
        node.flops = op.cost.flops;
        node.tensor_bytes = static_cast<std::uint64_t>(op.cost.bytes);
        break;
      }
      case OpKind::collective: {
        node.kind = TraceNodeKind::collective;
        node.collective = trace_collective(op.collective);
        node.comm_bytes = op.bytes;
        node.process_group = declare_group(role, op.group, form, device, graph);
        break;
      }
      case OpKind::send:
      case OpKind::recv:
        node.kind = op.kind == OpKind::send ? TraceNodeKind::send : TraceNodeKind::recv;
        node.peer = role.peer(op.peer, op);
        node.tag = static_cast<std::int64_t>(op.match);
        node.comm_bytes = op.bytes;
        if (form == TraceExportForm::by_role) {
          // A pipeline neighbour is the next or previous member of the pipeline group, a context-ring
          // neighbour of the context group, cyclically (training_layout.hpp).
          const GroupKind kind = accelerator::is_pipeline_peer(op.peer) ? GroupKind::pipeline : GroupKind::context;
          node.peer_group = declare_group(role, kind, form, device, graph);
          const bool next = op.peer == accelerator::Peer::next_stage || op.peer == accelerator::Peer::next_context;
          node.peer_step = next ? 1 : -1;
          if (member_after(graph.strided_groups.at(node.peer_group), device, node.peer_step) !=
              static_cast<std::uint64_t>(*node.peer))
            throw std::invalid_argument(fmt::format("device {}: op '{}': its peer {} is not the {} member of its {} group",
                                                    device, node.name, *node.peer, next ? "next" : "previous",
                                                    node.peer_group));
        }
        break;
    }
    for (std::uint32_t d = 0; d < op.dependency_count; ++d)
      node.data_dependencies.push_back(program.dependencies[op.first_dependency + d] + std::uint64_t{1});
    if (op.stream >= last_on_stream.size()) last_on_stream.resize(op.stream + 1, 0);
    if (last_on_stream[op.stream] != 0) node.control_dependencies.push_back(last_on_stream[op.stream]);
    last_on_stream[op.stream] = node.id;
    graph.nodes.push_back(std::move(node));
  }
  return graph;
}

}  // namespace rackscale::models::workload
