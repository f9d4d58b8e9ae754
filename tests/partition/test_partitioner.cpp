// Block and round-robin placement against hand-worked assignments; what every partitioner promises.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graph_fixtures.hpp"
#include "partition/partitioner.hpp"

using rackscale::partition::Graph;
using rackscale::partition::make_partitioner;

TEST(BlockPartitioner, UnitWeightsGiveContiguousBlocksDifferingByAtMostOne) {
  const auto block = make_partitioner("block");
  EXPECT_EQ(block->assign(Graph::isolated(10), 4), (std::vector<std::int32_t>{0, 0, 1, 1, 1, 2, 2, 3, 3, 3}));
  EXPECT_EQ(block->assign(Graph::isolated(4), 4), (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(block->assign(Graph::isolated(2), 3), (std::vector<std::int32_t>{0, 2}));
  for (int parts = 1; parts <= 9; ++parts) {
    const auto assignment = block->assign(Graph::isolated(1000), parts);
    std::vector<int> sizes(static_cast<std::size_t>(parts), 0);
    for (std::size_t v = 0; v < assignment.size(); ++v) {
      ASSERT_GE(assignment[v], 0);
      ASSERT_LT(assignment[v], parts);
      if (v > 0) {
        ASSERT_LE(assignment[v - 1], assignment[v]) << "blocks must be contiguous";
      }
      ++sizes[static_cast<std::size_t>(assignment[v])];
    }
    const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
    EXPECT_LE(*hi - *lo, 1) << parts << " parts";
  }
}

TEST(BlockPartitioner, BalancesByWeight) {
  Graph g = Graph::isolated(6);
  g.vertex_weight = {6, 1, 1, 1, 1, 2};  // total 12: halves are {6} and {1,1,1,1,2}
  EXPECT_EQ(make_partitioner("block")->assign(g, 2), (std::vector<std::int32_t>{0, 1, 1, 1, 1, 1}));
}

TEST(RoundRobinPartitioner, DealsVerticesInTurn) {
  EXPECT_EQ(make_partitioner("round_robin")->assign(Graph::isolated(7), 3),
            (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2, 0}));
}

// Four compute racks, then racks of leaves (class 1) and spines (class 2) alternating as a fat tree's pods
// lay them out: dealt in turn without classes, every leaf rack would land on part 0 and every spine rack
// on part 1. With classes the deal runs over compute racks, then leaves, then spines: on 2 parts the
// leaves (racks 4, 6, 8) go to 0, 1, 0 and the spines (5, 7, 9) on from part 1: 1, 0, 1. On 4 parts the
// leaves take parts 0, 1 and the spines 2, 3, so every part holds two racks (starting each class where
// its first rack stood would give part 1 three racks and part 3 one).
TEST(RoundRobinPartitioner, DealsEachClassInTurnOnItsOwn) {
  Graph g = Graph::isolated(10);
  g.vertex_class = {0, 0, 0, 0, 1, 2, 1, 2, 1, 2};
  EXPECT_EQ(make_partitioner("round_robin")->assign(g, 2), (std::vector<std::int32_t>{0, 1, 0, 1, 0, 1, 1, 0, 0, 1}));
  Graph four = Graph::isolated(8);
  four.vertex_class = {0, 0, 0, 0, 1, 2, 1, 2};
  EXPECT_EQ(make_partitioner("round_robin")->assign(four, 4), (std::vector<std::int32_t>{0, 1, 2, 3, 0, 2, 1, 3}));
  g.vertex_class.assign(10, 7);  // one class: as without classes
  EXPECT_EQ(make_partitioner("round_robin")->assign(g, 3), (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
  g.vertex_class.resize(9);
  EXPECT_THROW((void)make_partitioner("round_robin")->assign(g, 2), std::invalid_argument);
}

TEST(Partitioner, UnknownNameListsTheChoices) {
  try {
    (void)make_partitioner("random");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown partition method 'random': expected one of block, round_robin, metis");
  }
}

// Every method, on graphs with and without edges, with fewer, as many and more vertices than parts:
// one entry per vertex, each a valid part. And with at least as many vertices as parts, no part is
// left empty (with unit weights; an empty rank would idle while the others work).
TEST(Partitioner, EveryMethodAssignsEveryVertexOnceToAValidPart) {
  using rackscale::partition::partitioner_names;
  namespace fx = rackscale::partition::testing;
  const std::vector<Graph> graphs{Graph::isolated(0), Graph::isolated(1), Graph::isolated(5), Graph::isolated(37),
                                  fx::interleaved_ring(4, 9), fx::grid(7, 5)};
  for (const std::string& method : partitioner_names()) {
    const auto partitioner = make_partitioner(method);
    EXPECT_EQ(partitioner->name(), method);
    for (const Graph& g : graphs) {
      for (int parts : {1, 2, 3, 4, 7, 8, 40}) {
        const auto assignment = partitioner->assign(g, parts);
        ASSERT_EQ(assignment.size(), g.vertex_count()) << method << ", " << parts << " parts";
        std::vector<int> members(static_cast<std::size_t>(parts), 0);
        for (const std::int32_t p : assignment) {
          ASSERT_GE(p, 0) << method;
          ASSERT_LT(p, parts) << method;
          ++members[static_cast<std::size_t>(p)];
        }
        if (g.vertex_count() >= static_cast<std::size_t>(parts)) {
          EXPECT_EQ(std::count(members.begin(), members.end(), 0), 0)
              << method << " left a part empty: " << g.vertex_count() << " vertices, " << parts << " parts";
        }
      }
    }
  }
}

TEST(Partitioner, FactoryKnowsAllThreeMethods) {
  EXPECT_EQ(rackscale::partition::partitioner_names(), (std::vector<std::string>{"block", "round_robin", "metis"}));
}
