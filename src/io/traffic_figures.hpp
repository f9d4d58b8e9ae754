#pragma once
// The figures of a traffic run under their one name each, as both `rackscale run --json` and the results
// file (/traffic) carry them (docs/output.md), and the per-link-class and busiest-port tables of the
// JSON object, whose columns are named as /links names them.
#include "io/figures.hpp"
#include "models/traffic/traffic_report.hpp"

namespace rackscale::io {

// messages_planned, messages_delivered, bytes_delivered, makespan_ps, aggregate_throughput_Bps,
// injection_bandwidth_Bps, line_rate_fraction, completion_{min,mean,p50,p99,max,sum}_ps.
[[nodiscard]] Figures traffic_figures(const models::traffic::TrafficReport& report);
// link_class, ports, bytes, mean_utilization, max_utilization, queueing_max_ps (rank 0's report).
[[nodiscard]] Table link_class_table(const models::traffic::TrafficReport& report);
// port, from_node, to_node, link_class, bytes, utilization, queueing_max_ps (rank 0's report).
[[nodiscard]] Table busiest_port_table(const models::traffic::TrafficReport& report);

}  // namespace rackscale::io
