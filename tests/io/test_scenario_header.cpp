// A summary's first lines (src/io/scenario_header.hpp): the config's free-text description is shown only
// while nothing overrides the config, since an override can make it untrue; the overrides are listed.
#include <gtest/gtest.h>

#include <string>

#include "io/config/scenario_loader.hpp"
#include "io/scenario_header.hpp"

namespace {

const std::string kConfig = std::string(RACKSCALE_SOURCE_DIR) + "/configs/training/gpt3-175b-1024-a100.yaml";

TEST(ScenarioHeader, TheDescriptionWhenNothingIsOverridden) {
  const auto s = rackscale::io::load_scenario(kConfig, {});
  EXPECT_EQ(rackscale::io::scenario_header(s, "HEADLINE"),
            "gpt3-175b-1024-a100: HEADLINE\nconfig: " + kConfig +
                "\ndescription: GPT-3 175B on 1,024 A100s, TP 8 x PP 16 (interleaved) x DP 8, as in Megatron-LM\n");
}

TEST(ScenarioHeader, TheOverridesInsteadOfTheDescription) {
  const auto s = rackscale::io::load_scenario(kConfig, {"cluster.nodes=16", "tco.pue=1.2"});
  EXPECT_EQ(rackscale::io::scenario_header(s, "HEADLINE"),
            "gpt3-175b-1024-a100: HEADLINE\nconfig: " + kConfig + " with --set cluster.nodes=16 --set tco.pue=1.2\n");
}

}  // namespace
