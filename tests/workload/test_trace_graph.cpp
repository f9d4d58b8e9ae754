// The dependency graph of a traced rank (models/workload/trace_graph): its order and what is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "models/workload/trace_graph.hpp"
#include "models/workload/trace_program.hpp"

namespace {

using rackscale::models::workload::TraceGraph;
using rackscale::models::workload::TraceGraphError;
using rackscale::models::workload::TraceNode;

TraceNode node(std::uint64_t id, std::vector<std::uint64_t> control, std::vector<std::uint64_t> data = {}) {
  TraceNode n;
  n.id = id;
  n.control_dependencies = std::move(control);
  n.data_dependencies = std::move(data);
  return n;
}

std::string error_of(const TraceGraph& graph, std::uint64_t* at = nullptr) {
  try {
    (void)graph.dependency_order();
  } catch (const TraceGraphError& e) {
    if (at != nullptr) *at = e.node();
    return e.what();
  }
  return "";
}

TEST(TraceGraph, OrdersEveryNodeAfterItsDependenciesWithTiesInFileOrder) {
  // File order 40, 10, 30, 20: 10 needs 30 (data) and 40 (control); 20 needs 10. Ready at first: 40
  // (index 0) and 30 (index 2); then 10 (index 1); then 20.
  TraceGraph graph;
  graph.nodes = {node(40, {}), node(10, {40}, {30}), node(30, {}), node(20, {10})};
  const std::vector<std::uint32_t> order = graph.dependency_order();
  EXPECT_EQ(order, (std::vector<std::uint32_t>{0, 2, 1, 3}));
}

TEST(TraceGraph, NamesTheCycleItFinds) {
  TraceGraph graph;
  graph.nodes = {node(1, {}), node(2, {4}), node(3, {2}), node(4, {3}), node(5, {1})};
  std::uint64_t at = 0;
  const std::string message = error_of(graph, &at);
  EXPECT_NE(message.find("dependency cycle: 2 -> 4 -> 3 -> 2"), std::string::npos) << message;
  EXPECT_EQ(at, 2U);
}

TEST(TraceGraph, RefusesAMissingDependencyARepeatedIdAndASelfLoop) {
  TraceGraph missing;
  missing.nodes = {node(1, {}), node(2, {}, {9})};
  EXPECT_NE(error_of(missing).find("node 2 depends on node 9, which the trace does not have"), std::string::npos);
  TraceGraph repeated;
  repeated.nodes = {node(7, {}), node(7, {})};
  EXPECT_NE(error_of(repeated).find("node id 7 appears twice"), std::string::npos);
  TraceGraph self;
  self.nodes = {node(3, {3})};
  EXPECT_NE(error_of(self).find("node 3 depends on itself"), std::string::npos);
}

// The replay's edges (trace_program.hpp): per op in replay order, its dependencies once each whether
// recorded as data, control or both, and the ops that depend on it, ascending.
TEST(TraceGraph, ReplayEdgesListEachDependencyOnceAndTheDependentsInOpOrder) {
  using rackscale::models::workload::ControlDependencies;
  using rackscale::models::workload::replay_edges;
  using Ops = std::vector<std::uint32_t>;
  TraceGraph graph;  // ops in replay order: 40, 30, 10, 20
  graph.nodes = {node(40, {}), node(10, {40}, {30, 40}), node(30, {}), node(20, {10}, {30})};
  const auto as_ops = [](std::span<const std::uint32_t> s) { return Ops(s.begin(), s.end()); };
  const auto honored = replay_edges(graph, ControlDependencies::honor);
  EXPECT_EQ(honored->order, (Ops{0, 2, 1, 3}));
  EXPECT_EQ(as_ops(honored->dependencies_of(0)), Ops{});
  EXPECT_EQ(as_ops(honored->dependencies_of(2)), (Ops{0, 1}));
  EXPECT_EQ(as_ops(honored->dependencies_of(3)), (Ops{1, 2}));
  EXPECT_EQ(as_ops(honored->dependents_of(0)), Ops{2});
  EXPECT_EQ(as_ops(honored->dependents_of(1)), (Ops{2, 3}));
  EXPECT_EQ(as_ops(honored->dependents_of(2)), Ops{3});
  EXPECT_EQ(as_ops(honored->dependents_of(3)), Ops{});
  const auto ignored = replay_edges(graph, ControlDependencies::ignore);
  EXPECT_EQ(as_ops(ignored->dependencies_of(3)), Ops{1});
  EXPECT_EQ(as_ops(ignored->dependents_of(2)), Ops{});
  EXPECT_EQ(as_ops(ignored->dependents_of(1)), (Ops{2, 3}));
}

}  // namespace
