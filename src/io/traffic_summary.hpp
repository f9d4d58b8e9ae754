#pragma once
// How a traffic run is shown: a readable summary for people and one JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario.hpp"
#include "models/traffic/traffic_report.hpp"

namespace rackscale::io {

[[nodiscard]] std::string traffic_summary(const models::Scenario& scenario, const models::traffic::TrafficReport& report);

// Keys: scenario, devices, switches, cables, racks, topology, fidelity, messages_planned,
// messages_delivered, bytes_delivered, makespan_ps, aggregate_throughput_Bps, injection_bandwidth_Bps,
// line_rate_fraction, completion_ps {min, mean, p50, p99, max}, link_classes [...], busiest_links [...],
// partition {...}, engine {...} (see docs/output.md).
[[nodiscard]] nlohmann::ordered_json traffic_json(const models::Scenario& scenario,
                                                  const models::traffic::TrafficReport& report);

// Human-readable units for summaries: "1.5 MiB", "400 Gb/s (50 GB/s)".
[[nodiscard]] std::string format_bytes(double bytes);
[[nodiscard]] std::string format_bandwidth(double bytes_per_second);

}  // namespace rackscale::io
