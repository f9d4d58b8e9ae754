// The Pareto front of the cluster search (src/search/pareto_front.hpp) on a hand-made set, and the
// cluster space's product and errors (src/search/cluster_space.hpp).
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "search/cluster_space.hpp"
#include "search/pareto_front.hpp"

using rackscale::search::pareto_front;
using rackscale::search::ParetoPoint;

TEST(ParetoFront, KeepsExactlyThePointsNoOtherBeats) {
  // (time, cost): 0 fast and dear, 1 slow and cheap, 2 between them, 3 beaten by 2 in both, 4 as fast as 0
  // but dearer (beaten), 5 as cheap as 1 but slower (beaten), 6 equal to 2 (both on the front).
  const std::vector<ParetoPoint> points{{1, 10}, {10, 1}, {4, 4}, {5, 5}, {1, 11}, {11, 1}, {4, 4}};
  EXPECT_EQ(pareto_front(points), (std::vector<std::size_t>{0, 2, 6, 1}));
}

TEST(ParetoFront, OnePointAndNone) {
  EXPECT_EQ(pareto_front({{3, 3}}), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(pareto_front({}).empty());
  // A point better in both than all others is the whole front.
  EXPECT_EQ(pareto_front({{2, 9}, {1, 1}, {9, 2}}), (std::vector<std::size_t>{1}));
}

TEST(ClusterSpace, TheProductOfTheAxesAsOverrides) {
  const auto points =
      rackscale::search::parse_cluster_space("nic=connectx7-400g,connectx8-800g accelerator=h100-sxm5-80gb,b200-hgx");
  ASSERT_EQ(points.size(), 4u);
  // The accelerator varies slowest, whatever the order written.
  EXPECT_EQ(points[1].name, "accelerator=h100-sxm5-80gb nic=connectx8-800g");
  EXPECT_EQ(points[2].overrides, (std::vector<std::string>{"cluster.accelerator=b200-hgx", "cluster.nic=connectx7-400g"}));
}

TEST(ClusterSpace, BadItemsAreNamed) {
  const auto message = [](const char* text) {
    try {
      (void)rackscale::search::parse_cluster_space(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("gpu=h100"),
            "--cluster-space: 'gpu=h100': expected axis=values with an axis of accelerator, nic, oversubscription, "
            "domain, nodes, found 'gpu'");
  EXPECT_EQ(message("nodes=8 nodes=16"), "--cluster-space: 'nodes=16': the axis nodes is given twice");
  EXPECT_EQ(message("nodes="), "--cluster-space: 'nodes=': expected a comma list of values, found none");
  EXPECT_EQ(message(""),
            "--cluster-space: expected at least one axis of accelerator, nic, oversubscription, domain, nodes, found none");
}
