#pragma once
// How a traffic run is shown: a readable summary for people and one JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "io/number_format.hpp"

#include "models/scenario.hpp"
#include "models/traffic/traffic_report.hpp"

namespace rackscale::io {

[[nodiscard]] std::string traffic_summary(const models::Scenario& scenario, const models::traffic::TrafficReport& report);

// Keys: scenario, devices, switches, cables, racks, topology, fidelity, the /traffic figures
// (io/traffic_figures.hpp), link_classes [...], busiest_links [...], setup_s, partition {...}, engine
// {...}; docs/cli.md lists them.
[[nodiscard]] nlohmann::ordered_json traffic_json(const models::Scenario& scenario,
                                                  const models::traffic::TrafficReport& report);

}  // namespace rackscale::io
