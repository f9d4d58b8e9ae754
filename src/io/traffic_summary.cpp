#include "models/network/fidelity.hpp"
#include "io/traffic_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/partition_summary.hpp"
#include "io/scenario_header.hpp"
#include "io/statistics_figures.hpp"
#include "io/text_table.hpp"
#include "io/traffic_figures.hpp"

namespace rackscale::io {

namespace traffic = models::traffic;
namespace {
std::string fidelity_label(const models::network::NetworkSpec& n) {
  return std::string(models::network::fidelity_name(n.fidelity));
}

std::string network_line(const models::network::NetworkSpec& n) {
  if (!models::network::models_contention(n.fidelity)) return "analytical (no contention)";
  return fmt::format("{} ({} chunks, {})", fidelity_label(n), format_bytes(static_cast<double>(n.chunk_bytes)),
                     n.forwarding == models::network::Forwarding::cut_through ? "cut-through" : "store-and-forward");
}

const char* pattern_name(models::TrafficPattern p) {
  switch (p) {
    case models::TrafficPattern::permutation: return "permutation";
    case models::TrafficPattern::all_to_all: return "all-to-all";
    case models::TrafficPattern::incast: return "incast";
    case models::TrafficPattern::ring: return "ring";
    case models::TrafficPattern::uniform_random: return "uniform random";
  }
  return "traffic";
}

}  // namespace

std::string traffic_summary(const models::Scenario& s, const traffic::TrafficReport& r) {
  std::string out;
  const auto& t = s.workload.traffic;
  out += scenario_header(s, fmt::format("{} traffic of {} messages on {} devices", pattern_name(t.pattern),
                                        format_bytes(static_cast<double>(t.bytes)), with_commas(r.devices)));
  out += fmt::format("cluster: {} devices, {} switches, {} cables, {} racks; {}\n", with_commas(r.devices),
                     with_commas(r.switches), with_commas(r.cables), with_commas(r.racks), r.topology);
  out += fmt::format("network: {}\n", network_line(s.network));
  out += fmt::format("partition: {} over {} rank(s), imbalance {}, {} cross-rank cables, lookahead {}\n\n",
                     r.partition.method, r.partition.ranks, significant(r.partition.imbalance),
                     with_commas(r.partition.cross_rank_cables), format_picoseconds(r.partition.lookahead));

  using A = TextTable::Align;
  TextTable figures({"traffic", "value"}, {A::left, A::right});
  figures.add_row({"messages delivered",
                   fmt::format("{} of {}", with_commas(r.messages_delivered), with_commas(r.messages_planned))});
  figures.add_row({"bytes delivered", format_bytes(static_cast<double>(r.bytes_delivered))});
  figures.add_row({"makespan", format_picoseconds(r.makespan)});
  figures.add_row({"aggregate throughput", format_bandwidth(r.aggregate_throughput)});
  figures.add_row({"of senders' line rate", format_percent(r.line_rate_fraction)});
  figures.add_row({"completion min", format_picoseconds(r.completion_min)});
  figures.add_row({"completion mean", format_seconds(r.completion_mean * 1e-12)});
  figures.add_row({"completion p50", format_picoseconds(r.completion_p50)});
  figures.add_row({"completion p99", format_picoseconds(r.completion_p99)});
  figures.add_row({"completion max", format_picoseconds(r.completion_max)});
  out += figures.render() + "\n";

  // Without contention a port can be offered more than it could carry; call it load, not utilization.
  const bool analytical = !models::network::models_contention(s.network.fidelity);
  const std::string mean_heading = analytical ? "mean load" : "mean util";
  const std::string max_heading = analytical ? "max load" : "max util";
  if (analytical) out += "link load = bytes / (bandwidth x makespan); analytical: no contention, so it may exceed 100 %\n";
  // Queueing in one unit for both tables, from the longest wait.
  pdes::SimTime longest_wait = 0;
  for (const auto& c : r.by_link_class) longest_wait = std::max(longest_wait, c.max_wait);
  const Unit wait_unit = time_unit(pdes::to_seconds(longest_wait));
  const auto wait = [&](pdes::SimTime ps) { return in_unit(pdes::to_seconds(ps), wait_unit); };
  TextTable classes({"links", "ports", "bytes", mean_heading, max_heading, "max queueing"},
                    {A::left, A::right, A::right, A::right, A::right, A::right});
  for (const auto& c : r.by_link_class)
    classes.add_row({traffic::link_class_name(c.link_class), with_commas(c.ports), format_bytes(static_cast<double>(c.bytes)),
                     format_percent(c.mean_utilization), format_percent(c.max_utilization),
                     wait(c.max_wait)});
  out += classes.render() + "\n";

  if (!r.busiest.empty()) {
    TextTable busiest({"busiest ports", "from node", "to node", "bytes", analytical ? "load" : "util", "max queueing"},
                      {A::left, A::right, A::right, A::right, A::right, A::right});
    for (const auto& p : r.busiest)
      busiest.add_row({traffic::link_class_name(p.link_class), std::to_string(p.from), std::to_string(p.to),
                       format_bytes(static_cast<double>(p.bytes)), format_percent(p.utilization),
                       wait(p.max_wait)});
    out += busiest.render() + "\n";
  }
  out += engine_line(r.engine, r.setup_seconds);
  return out;
}

nlohmann::ordered_json traffic_json(const models::Scenario& s, const traffic::TrafficReport& r) {
  nlohmann::ordered_json j{{"scenario", s.name},
                           {"devices", r.devices},
                           {"switches", r.switches},
                           {"cables", r.cables},
                           {"racks", r.racks},
                           {"topology", r.topology},
                           {"fidelity", fidelity_label(s.network)}};
  add_figures(j, traffic_figures(r));
  j["link_classes"] = table_json(link_class_table(r));
  j["busiest_links"] = table_json(busiest_port_table(r));
  j["setup_s"] = r.setup_seconds;
  j["partition"] = partition_json(r.partition);
  j["engine"] = engine_json(r.engine);
  j["statistics"] = statistics_json(r.statistics);
  return j;
}

}  // namespace rackscale::io
