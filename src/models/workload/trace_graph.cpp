#include "models/workload/trace_graph.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

namespace rackscale::models::workload {

std::string_view trace_node_kind_name(TraceNodeKind kind) noexcept {
  switch (kind) {
    case TraceNodeKind::metadata: return "metadata";
    case TraceNodeKind::memory_load: return "memory load";
    case TraceNodeKind::memory_store: return "memory store";
    case TraceNodeKind::compute: return "compute";
    case TraceNodeKind::send: return "send";
    case TraceNodeKind::recv: return "receive";
    case TraceNodeKind::collective: return "collective";
  }
  return "unknown";
}

std::string_view trace_collective_name(TraceCollective kind) noexcept {
  switch (kind) {
    case TraceCollective::all_reduce: return "all_reduce";
    case TraceCollective::reduce: return "reduce";
    case TraceCollective::all_gather: return "all_gather";
    case TraceCollective::gather: return "gather";
    case TraceCollective::scatter: return "scatter";
    case TraceCollective::broadcast: return "broadcast";
    case TraceCollective::all_to_all: return "all_to_all";
    case TraceCollective::reduce_scatter: return "reduce_scatter";
    case TraceCollective::reduce_scatter_block: return "reduce_scatter_block";
    case TraceCollective::barrier: return "barrier";
  }
  return "unknown";
}

namespace {

// Walks dependencies among the nodes Kahn's algorithm could not order (each has one there) until a
// node repeats, and names the cycle "a -> b -> ... -> a" in the direction "depends on".
// The dependency lists that order the replay.
std::vector<const std::vector<std::uint64_t>*> ordering_lists(const TraceNode& node, ControlDependencies control) {
  if (control == ControlDependencies::ignore) return {&node.data_dependencies};
  return {&node.control_dependencies, &node.data_dependencies};
}

std::string describe_cycle(const TraceGraph& graph, const std::unordered_map<std::uint64_t, std::uint32_t>& index_of,
                           const std::vector<std::uint32_t>& pending, std::uint32_t start, ControlDependencies control) {
  std::vector<std::uint32_t> path;
  std::unordered_map<std::uint32_t, std::size_t> position;
  std::uint32_t at = start;
  while (!position.contains(at)) {
    position.emplace(at, path.size());
    path.push_back(at);
    const TraceNode& node = graph.nodes[at];
    std::uint32_t next = at;
    for (const auto* deps : ordering_lists(node, control)) {
      for (std::uint64_t dep : *deps) {
        const std::uint32_t d = index_of.at(dep);
        if (pending[d] > 0) {
          next = d;
          break;
        }
      }
      if (next != at) break;
    }
    at = next;
  }
  std::string text;
  for (std::size_t i = position.at(at); i < path.size(); ++i) text += std::to_string(graph.nodes[path[i]].id) + " -> ";
  return text + std::to_string(graph.nodes[at].id);
}

}  // namespace

std::vector<std::uint32_t> TraceGraph::dependency_order(ControlDependencies control) const {
  const auto count = static_cast<std::uint32_t>(nodes.size());
  std::unordered_map<std::uint64_t, std::uint32_t> index_of;
  index_of.reserve(nodes.size());
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!index_of.emplace(nodes[i].id, i).second) {
      throw TraceGraphError(nodes[i].id, "node id " + std::to_string(nodes[i].id) + " appears twice");
    }
  }
  // Successor lists in compressed rows: first[i] .. first[i + 1] into `successors`.
  std::vector<std::uint32_t> pending(count, 0);
  std::vector<std::uint32_t> first(count + 1, 0);
  for (std::uint32_t i = 0; i < count; ++i) {
    for (const auto* deps : ordering_lists(nodes[i], control)) {
      for (std::uint64_t dep : *deps) {
        const auto found = index_of.find(dep);
        if (found == index_of.end()) {
          throw TraceGraphError(nodes[i].id, "node " + std::to_string(nodes[i].id) + " depends on node " +
                                                 std::to_string(dep) + ", which the trace does not have");
        }
        if (found->second == i) {
          throw TraceGraphError(nodes[i].id, "node " + std::to_string(nodes[i].id) + " depends on itself");
        }
        ++first[found->second + 1];
        ++pending[i];
      }
    }
  }
  for (std::uint32_t i = 0; i < count; ++i) first[i + 1] += first[i];
  std::vector<std::uint32_t> successors(first[count]);
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint32_t i = 0; i < count; ++i) {
    for (const auto* deps : ordering_lists(nodes[i], control)) {
      for (std::uint64_t dep : *deps) successors[fill[index_of.at(dep)]++] = i;
    }
  }

  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<std::uint32_t> order;
  order.reserve(count);
  while (!ready.empty()) {
    const std::uint32_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (std::uint32_t s = first[i]; s < first[i + 1]; ++s) {
      if (--pending[successors[s]] == 0) ready.push(successors[s]);
    }
  }
  if (order.size() != count) {
    const auto stuck = static_cast<std::uint32_t>(
        std::find_if(pending.begin(), pending.end(), [](std::uint32_t p) { return p > 0; }) - pending.begin());
    throw TraceGraphError(nodes[stuck].id,
                          "dependency cycle: " + describe_cycle(*this, index_of, pending, stuck, control) +
                              " (each depends on the next)");
  }
  return order;
}

}  // namespace rackscale::models::workload
