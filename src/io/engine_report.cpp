#include "io/engine_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/text_table.hpp"

namespace rackscale::io {
namespace {
nlohmann::ordered_json rank_json(const pdes::EngineStats& s) {
  return {{"lps", s.lps},
          {"events", s.events_processed},
          {"remote_sent", s.remote_sent},
          {"remote_received", s.remote_received},
          {"process_s", s.process_seconds},
          {"sync_s", s.sync_seconds},
          {"wall_s", s.wall_seconds},
          {"peak_memory_bytes", s.peak_memory_bytes}};
}
}  // namespace

std::string engine_table(const pdes::EngineTotals& totals) {
  using A = TextTable::Align;
  TextTable table({"rank", "LPs", "events", "sent remote", "received remote", "processing", "sync", "events/s",
                   "peak memory"},
                  {A::right, A::right, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  // Processing and sync times in one unit, from the longest.
  const Unit unit = time_unit(std::max(totals.total.process_seconds, totals.total.sync_seconds));
  const auto row = [&](const std::string& name, const pdes::EngineStats& s) {
    table.add_row({name, with_commas(s.lps), with_commas(s.events_processed), with_commas(s.remote_sent),
                   with_commas(s.remote_received), in_unit(s.process_seconds, unit), in_unit(s.sync_seconds, unit),
                   with_prefix(s.events_per_second(), Prefixes::counts, ""),
                   format_bytes(static_cast<double>(s.peak_memory_bytes))});
  };
  for (const auto& s : totals.per_rank) row(std::to_string(s.rank), s);
  if (totals.per_rank.size() > 1) row("total", totals.total);
  return table.render();
}

std::string engine_line(const pdes::EngineTotals& totals, double setup_seconds) {
  const auto& e = totals.total;
  return fmt::format("engine: setup {}; {} events in {} ({} events/s), {} windows, {} cross-rank events; peak memory "
                     "{} over {} rank(s)\n",
                     format_seconds(setup_seconds), with_commas(e.events_processed), format_seconds(e.wall_seconds),
                     with_prefix(e.events_per_second(), Prefixes::counts, ""), with_commas(e.windows),
                     with_commas(e.remote_sent), format_bytes(static_cast<double>(e.peak_memory_bytes)),
                     totals.per_rank.size());
}

nlohmann::ordered_json engine_json(const pdes::EngineTotals& totals) {
  const pdes::EngineStats& t = totals.total;
  nlohmann::ordered_json j{{"events", t.events_processed},
                           {"wall_s", t.wall_seconds},
                           {"events_per_s", t.events_per_second()},
                           {"windows", t.windows},
                           {"remote_events", t.remote_sent},
                           {"process_s", t.process_seconds},
                           {"sync_s", t.sync_seconds},
                           {"lookahead_ps", t.lookahead == pdes::kNever ? nlohmann::ordered_json(nullptr)
                                                                        : nlohmann::ordered_json(t.lookahead)},
                           {"final_time_ps", t.final_time},
                           {"peak_memory_bytes", t.peak_memory_bytes},
                           {"ranks", totals.per_rank.size()}};
  nlohmann::ordered_json per_rank = nlohmann::ordered_json::array();
  for (const auto& s : totals.per_rank) per_rank.push_back(rank_json(s));
  j["per_rank"] = std::move(per_rank);
  return j;
}

}  // namespace rackscale::io
