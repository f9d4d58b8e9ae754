#include "models/workload/trace_export.hpp"

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

}  // namespace

TraceGraph export_program(const accelerator::DeviceRole& role, const AcceleratorSpec& accelerator) {
  const accelerator::Program& program = role.program();
  TraceGraph graph;
  graph.nodes.reserve(program.ops.size());
  std::vector<std::uint64_t> last_on_stream;  // per stream: the node of its latest op (0: none)
  std::vector<std::uint32_t> members;
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
        std::uint32_t rank = 0;
        role.group(op.group, members, rank);
        node.process_group = fmt::format("{}.{}", group_name(op.group), members.front());
        graph.process_groups.try_emplace(node.process_group, members);
        break;
      }
      case OpKind::send:
      case OpKind::recv:
        node.kind = op.kind == OpKind::send ? TraceNodeKind::send : TraceNodeKind::recv;
        node.peer = role.peer(op.peer, op);
        node.tag = static_cast<std::int64_t>(op.match);
        node.comm_bytes = op.bytes;
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
