#include "io/traffic_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/partition_summary.hpp"
#include "io/text_table.hpp"

namespace rackscale::io {

namespace traffic = models::traffic;
using pdes::format_time;

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t i = 0;
  while (bytes >= 1024.0 && i + 1 < std::size(units)) {
    bytes /= 1024.0;
    ++i;
  }
  return fmt::format("{:.4g} {}", bytes, units[i]);
}

std::string format_bandwidth(double bytes_per_second) {
  return fmt::format("{}B/s ({}b/s)", si_scaled(bytes_per_second), si_scaled(8.0 * bytes_per_second));
}

namespace {
const char* fidelity_name(const models::network::NetworkSpec& n) {
  return n.fidelity == models::network::Fidelity::chunk ? "chunk" : "analytical";
}

std::string network_line(const models::network::NetworkSpec& n) {
  if (n.fidelity == models::network::Fidelity::analytical) return "analytical (no contention)";
  return fmt::format("chunk ({} chunks, {})", format_bytes(static_cast<double>(n.chunk_bytes)),
                     n.forwarding == models::network::Forwarding::cut_through ? "cut-through" : "store-and-forward");
}

}  // namespace

std::string traffic_summary(const models::Scenario& s, const traffic::TrafficReport& r) {
  std::string out;
  out += fmt::format("{}: {}\n", s.name, s.description);
  out += fmt::format("cluster: {} devices, {} switches, {} cables, {} racks; {}\n", with_commas(r.devices),
                     with_commas(r.switches), with_commas(r.cables), with_commas(r.racks), r.topology);
  out += fmt::format("network: {}\n", network_line(s.network));
  out += fmt::format("partition: {} over {} rank(s), imbalance {:.3f}, {} cross-rank cables, lookahead {}\n\n",
                     r.partition.method, r.partition.ranks, r.partition.imbalance,
                     with_commas(r.partition.cross_rank_cables), format_time(r.partition.lookahead));

  using A = TextTable::Align;
  TextTable figures({"traffic", "value"}, {A::left, A::right});
  figures.add_row({"messages delivered",
                   fmt::format("{} of {}", with_commas(r.messages_delivered), with_commas(r.messages_planned))});
  figures.add_row({"bytes delivered", format_bytes(static_cast<double>(r.bytes_delivered))});
  figures.add_row({"makespan", format_time(r.makespan)});
  figures.add_row({"aggregate throughput", format_bandwidth(r.aggregate_throughput)});
  figures.add_row({"of senders' line rate", fmt::format("{:.1f} %", 100.0 * r.line_rate_fraction)});
  figures.add_row({"completion min", format_time(r.completion_min)});
  figures.add_row({"completion mean", format_time(static_cast<pdes::SimTime>(std::llround(r.completion_mean)))});
  figures.add_row({"completion p50", format_time(r.completion_p50)});
  figures.add_row({"completion p99", format_time(r.completion_p99)});
  figures.add_row({"completion max", format_time(r.completion_max)});
  out += figures.render() + "\n";

  // Without contention a port can be offered more than it could carry; call it load, not utilization.
  const bool analytical = s.network.fidelity == models::network::Fidelity::analytical;
  const std::string mean_heading = analytical ? "mean load" : "mean util";
  const std::string max_heading = analytical ? "max load" : "max util";
  if (analytical) out += "link load = bytes / (bandwidth x makespan); analytical: no contention, so it may exceed 100 %\n";
  TextTable classes({"links", "ports", "bytes", mean_heading, max_heading, "max queueing"},
                    {A::left, A::right, A::right, A::right, A::right, A::right});
  for (const auto& c : r.by_link_class)
    classes.add_row({traffic::link_class_name(c.link_class), with_commas(c.ports), format_bytes(static_cast<double>(c.bytes)),
                     fmt::format("{:.1f} %", 100 * c.mean_utilization), fmt::format("{:.1f} %", 100 * c.max_utilization),
                     format_time(c.max_wait)});
  out += classes.render() + "\n";

  if (!r.busiest.empty()) {
    TextTable busiest({"busiest ports", "from node", "to node", "bytes", analytical ? "load" : "util", "max queueing"},
                      {A::left, A::right, A::right, A::right, A::right, A::right});
    for (const auto& p : r.busiest)
      busiest.add_row({traffic::link_class_name(p.link_class), std::to_string(p.from), std::to_string(p.to),
                       format_bytes(static_cast<double>(p.bytes)), fmt::format("{:.1f} %", 100 * p.utilization),
                       format_time(p.max_wait)});
    out += busiest.render() + "\n";
  }
  const auto& e = r.engine.total;
  out += fmt::format("engine: setup {:.3f} s; {} events in {:.3f} s ({} events/s), {} windows, {} cross-rank "
                     "events; peak memory {} over {} rank(s)\n",
                     r.setup_seconds, with_commas(e.events_processed), e.wall_seconds, si_scaled(e.events_per_second()),
                     with_commas(e.windows), with_commas(e.remote_sent),
                     format_bytes(static_cast<double>(e.peak_memory_bytes)), r.engine.per_rank.size());
  return out;
}

nlohmann::ordered_json traffic_json(const models::Scenario& s, const traffic::TrafficReport& r) {
  nlohmann::ordered_json classes = nlohmann::ordered_json::array();
  for (const auto& c : r.by_link_class)
    classes.push_back({{"class", traffic::link_class_name(c.link_class)},
                       {"ports", c.ports},
                       {"bytes", c.bytes},
                       {"mean_utilization", c.mean_utilization},
                       {"max_utilization", c.max_utilization},
                       {"max_wait_ps", c.max_wait}});
  nlohmann::ordered_json busiest = nlohmann::ordered_json::array();
  for (const auto& p : r.busiest)
    busiest.push_back({{"port", p.port},
                       {"from", p.from},
                       {"to", p.to},
                       {"class", traffic::link_class_name(p.link_class)},
                       {"bytes", p.bytes},
                       {"utilization", p.utilization},
                       {"max_wait_ps", p.max_wait}});
  return {{"scenario", s.name},
          {"devices", r.devices},
          {"switches", r.switches},
          {"cables", r.cables},
          {"racks", r.racks},
          {"topology", r.topology},
          {"fidelity", fidelity_name(s.network)},
          {"messages_planned", r.messages_planned},
          {"messages_delivered", r.messages_delivered},
          {"bytes_delivered", r.bytes_delivered},
          {"setup_s", r.setup_seconds},
          {"makespan_ps", r.makespan},
          {"aggregate_throughput_Bps", r.aggregate_throughput},
          {"injection_bandwidth_Bps", r.injection_bandwidth},
          {"line_rate_fraction", r.line_rate_fraction},
          {"completion_ps",
           {{"min", r.completion_min}, {"mean", r.completion_mean}, {"p50", r.completion_p50}, {"p99", r.completion_p99},
            {"max", r.completion_max}}},
          {"link_classes", classes},
          {"busiest_links", busiest},
          {"partition", partition_json(r.partition)},
          {"engine", engine_json(r.engine)}};
}

}  // namespace rackscale::io
