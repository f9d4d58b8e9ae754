// The layout space (src/search/layout_space.hpp): defaults, --space parsing and its errors.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "search/layout_space.hpp"

namespace {
namespace wl = rackscale::models::workload;
using rackscale::search::default_space;
using rackscale::search::LayoutSpace;
using rackscale::search::parse_space;

wl::TrainingSpec model(std::uint32_t layers, std::uint32_t heads, std::uint32_t experts = 0) {
  wl::TrainingSpec spec;
  spec.model.layers = layers;
  spec.model.heads = heads;
  spec.model.experts = experts;
  return spec;
}

rackscale::models::network::ClusterSpec cluster(std::uint32_t nodes) {
  rackscale::models::network::ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = 8;
  return c;
}

std::string message_of(const std::string& text) {
  try {
    (void)parse_space(text, default_space(model(16, 16), cluster(8)));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(LayoutSpace, DefaultsFollowTheModelAndTheCluster) {
  // 64 devices, 16 layers, 16 heads: tensor 1..16 (powers of two up to the heads), pipeline the divisors
  // of 64 up to 16 layers.
  const LayoutSpace s = default_space(model(16, 16), cluster(8));
  EXPECT_EQ(s.tensor, (std::vector<std::uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(s.pipeline, (std::vector<std::uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(s.expert, std::vector<std::uint32_t>{1});
  EXPECT_EQ(s.micro_batch.size(), 8u);
  EXPECT_EQ(s.zero.size(), 4u);
  EXPECT_EQ(s.recompute.size(), 3u);
  // 1 x 1 (no SP with tensor 1) + 4 x 2 tensor/SP pairs, times 5 x 4 x 4 x 1 x 8 x 4 x 3.
  EXPECT_EQ(s.size(), 9u * 5 * 4 * 4 * 1 * 8 * 4 * 3);
  // 405B-like: 128 heads, 126 layers, 16,384 devices: tensor capped at 64, pipeline divisors up to 126.
  const LayoutSpace big = default_space(model(126, 128), cluster(2048));
  EXPECT_EQ(big.tensor.back(), 64u);
  EXPECT_EQ(big.pipeline, (std::vector<std::uint32_t>{1, 2, 4, 8, 16, 32, 64}));
  // MoE: every divisor of the experts.
  EXPECT_EQ(default_space(model(8, 8, 12), cluster(1)).expert, (std::vector<std::uint32_t>{1, 2, 3, 4, 6, 12}));
}

TEST(LayoutSpace, SpaceOptionReplacesTheAxesItNames) {
  const LayoutSpace base = default_space(model(16, 16), cluster(8));
  const LayoutSpace s = parse_space("tensor=1..8 pipeline=2,4 zero=0..3 recompute=full,selective sequence_parallel=on",
                                    base);
  EXPECT_EQ(s.tensor, (std::vector<std::uint32_t>{1, 2, 4, 8}));  // a range of tensor keeps its powers of two
  EXPECT_EQ(s.pipeline, (std::vector<std::uint32_t>{2, 4}));
  EXPECT_EQ(s.zero, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.recompute, (std::vector<wl::Recompute>{wl::Recompute::selective, wl::Recompute::full}));
  EXPECT_EQ(s.sequence_parallel, std::vector<bool>{true});
  EXPECT_EQ(s.micro_batch, base.micro_batch);  // not named: unchanged
  // describe() reads back.
  const LayoutSpace again = parse_space(rackscale::search::describe(s), base);
  EXPECT_EQ(again.tensor, s.tensor);
  EXPECT_EQ(again.recompute, s.recompute);
  EXPECT_EQ(again.sequence_parallel, s.sequence_parallel);
  EXPECT_EQ(again.size(), s.size());
  // With tensor 1 and SP on only, the layout counts once (as SP off).
  EXPECT_EQ(parse_space("tensor=1 sequence_parallel=off,on", base).size(),
            parse_space("tensor=1 sequence_parallel=off", base).size());
}

TEST(LayoutSpace, BadItemsAreNamedWithWhatWasExpected) {
  EXPECT_EQ(message_of("tensor"), "--space: 'tensor': expected axis=values (e.g. tensor=1,2,4 or pipeline=1..16)");
  EXPECT_EQ(message_of("colour=1"),
            "--space: 'colour=1': unknown axis 'colour'; expected tensor, pipeline, virtual, context, expert, "
            "micro_batch, zero, recompute or sequence_parallel");
  EXPECT_EQ(message_of("pipeline=2,x"), "--space: 'pipeline=2,x': expected a whole number or a range a..b, found 'x'");
  EXPECT_EQ(message_of("zero=4"), "--space: 'zero=4': expected values from 0 to 3, found 4");
  EXPECT_EQ(message_of("pipeline=8..2"), "--space: 'pipeline=8..2': range 8..2 is empty");
  EXPECT_EQ(message_of("recompute=some"), "--space: 'recompute=some': expected none, selective or full, found 'some'");
  EXPECT_EQ(message_of("pipeline=0"), "--space: 'pipeline=0': expected values from 1 to 16777216, found 0");
}
