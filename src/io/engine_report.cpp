#include "io/engine_report.hpp"

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
  TextTable table({"rank", "LPs", "events", "sent remote", "received", "processing s", "sync s", "events/s", "peak MiB"},
                  {A::right, A::right, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  const auto row = [&](const std::string& name, const pdes::EngineStats& s) {
    table.add_row({name, with_commas(s.lps), with_commas(s.events_processed), with_commas(s.remote_sent),
                   with_commas(s.remote_received), fmt::format("{:.3f}", s.process_seconds),
                   fmt::format("{:.3f}", s.sync_seconds), si_scaled(s.events_per_second()),
                   fmt::format("{:.0f}", static_cast<double>(s.peak_memory_bytes) / (1024.0 * 1024.0))});
  };
  for (const auto& s : totals.per_rank) row(std::to_string(s.rank), s);
  if (totals.per_rank.size() > 1) row("total", totals.total);
  return table.render();
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
