#pragma once
// The goodput command's summary and `--json` object (docs/cli.md, "rackscale goodput").
#include <string>

#include <nlohmann/json.hpp>

#include "app/goodput_run.hpp"

namespace rackscale::app {

[[nodiscard]] std::string goodput_summary(const models::Scenario& scenario, const GoodputReport& report);
[[nodiscard]] nlohmann::ordered_json goodput_json(const models::Scenario& scenario, const GoodputReport& report);

}  // namespace rackscale::app
