#pragma once
// The first lines of a summary: the scenario's name and a headline made from what actually runs (so that
// `--set` overrides show in it), then the config file it came from. The config's free-text description
// is shown only when no `--set` override was applied, since an override can make it untrue ("on 1,024
// A100s" after --set cluster.nodes=16); with overrides the line lists them instead.
#include <string>

#include "models/scenario.hpp"

namespace rackscale::io {

// "NAME: HEADLINE\nconfig: FILE\ndescription: ...\n" or "NAME: HEADLINE\nconfig: FILE with --set a=1 --set b=2\n".
[[nodiscard]] std::string scenario_header(const models::Scenario& scenario, const std::string& headline);

}  // namespace rackscale::io
