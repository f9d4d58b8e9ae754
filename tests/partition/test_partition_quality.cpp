// Partition quality figures on a hand-made graph, worked out by hand.
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "graph_fixtures.hpp"
#include "partition/partition_quality.hpp"

using rackscale::partition::Graph;
using rackscale::partition::partition_quality;
namespace fx = rackscale::partition::testing;

namespace {
// Weights {3, 1, 2, 2, 4} (total 12); edges 0-1:5, 1-2:1, 2-3:7, 3-4:2, 0-4:3, 1-3:4.
Graph pentagon() {
  return fx::from_edges({3, 1, 2, 2, 4}, {{0, 1, 5}, {1, 2, 1}, {2, 3, 7}, {3, 4, 2}, {0, 4, 3}, {1, 3, 4}});
}
}  // namespace

TEST(PartitionQuality, HandWorkedThreeWaySplit) {
  // Parts {0,1} {2} {3,4}: weights 4, 2, 6; mean 4, so imbalance 6 / 4 = 1.5. Cut: 1-2 (1), 2-3 (7),
  // 0-4 (3), 1-3 (4) = 4 edges of weight 15; 0-1 and 3-4 stay inside. Per part: part 0 has 1-2, 0-4,
  // 1-3 = 8; part 1 has 1-2, 2-3 = 8; part 2 has 2-3, 0-4, 1-3 = 14 (sum 30 = 2 * 15).
  const std::vector<std::int32_t> part{0, 0, 1, 2, 2};
  const auto q = partition_quality(pentagon(), 3, part);
  EXPECT_EQ(q.part_weight, (std::vector<std::int64_t>{4, 2, 6}));
  EXPECT_DOUBLE_EQ(q.imbalance, 1.5);
  EXPECT_EQ(q.cut_edges, 4);
  EXPECT_EQ(q.cut_weight, 15);
  EXPECT_EQ(q.part_cut_weight, (std::vector<std::int64_t>{8, 8, 14}));
}

TEST(PartitionQuality, EmptyPartsCountInTheMean) {
  // Everything on part 1 of 4: weights {0, 12, 0, 0}, mean 3, imbalance 4; nothing cut.
  const std::vector<std::int32_t> part(5, 1);
  const auto q = partition_quality(pentagon(), 4, part);
  EXPECT_EQ(q.part_weight, (std::vector<std::int64_t>{0, 12, 0, 0}));
  EXPECT_DOUBLE_EQ(q.imbalance, 4.0);
  EXPECT_EQ(q.cut_edges, 0);
  EXPECT_EQ(q.cut_weight, 0);
  EXPECT_EQ(q.part_cut_weight, (std::vector<std::int64_t>{0, 0, 0, 0}));
}

TEST(PartitionQuality, EveryVertexAlone) {
  // Five parts of one vertex: max weight 4 over mean 12 / 5 = 5 / 3; all 6 edges cut, weight 22.
  const std::vector<std::int32_t> part{0, 1, 2, 3, 4};
  const auto q = partition_quality(pentagon(), 5, part);
  EXPECT_DOUBLE_EQ(q.imbalance, 5.0 / 3.0);
  EXPECT_EQ(q.cut_edges, 6);
  EXPECT_EQ(q.cut_weight, 22);
  // Each vertex's cut weight is its weighted degree: 0: 5+3, 1: 5+1+4, 2: 1+7, 3: 7+2+4, 4: 2+3.
  EXPECT_EQ(q.part_cut_weight, (std::vector<std::int64_t>{8, 10, 8, 13, 5}));
}

TEST(PartitionQuality, RejectsMismatchedInput) {
  const std::vector<std::int32_t> short_part{0, 0, 1};
  EXPECT_THROW((void)partition_quality(pentagon(), 2, short_part), std::invalid_argument);
  const std::vector<std::int32_t> out_of_range{0, 0, 1, 2, 2};
  EXPECT_THROW((void)partition_quality(pentagon(), 2, out_of_range), std::invalid_argument);
  EXPECT_THROW((void)partition_quality(pentagon(), 0, out_of_range), std::invalid_argument);
}
