#pragma once
// How engine statistics are shown: a per-rank table for people, a JSON object for scripts.
#include <string>

#include <nlohmann/json.hpp>

#include "pdes/statistics.hpp"

namespace rackscale::io {

// Per-rank rows and a total row: LPs, events, cross-rank sent/received, processing and sync time.
[[nodiscard]] std::string engine_table(const pdes::EngineTotals& totals);

// One line for a run's summary: setup time, events, wall time and rate, windows, cross-rank events and
// peak memory over the ranks.
[[nodiscard]] std::string engine_line(const pdes::EngineTotals& totals, double setup_seconds);

// Totals as JSON: events, wall_s, events_per_s, windows, remote_events, process_s, sync_s,
// lookahead_ps, final_time_ps, ranks, and per_rank (array of the same per rank).
[[nodiscard]] nlohmann::ordered_json engine_json(const pdes::EngineTotals& totals);

}  // namespace rackscale::io
