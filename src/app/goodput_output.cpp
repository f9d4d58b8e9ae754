#include "app/goodput_output.hpp"

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "io/scenario_header.hpp"
#include "io/tco_figures.hpp"
#include "io/text_table.hpp"

namespace rackscale::app {
namespace {

namespace gp = models::goodput;
using A = io::TextTable::Align;

std::string days(double seconds) { return io::format_seconds(seconds); }

nlohmann::ordered_json spread_json(const gp::Spread& s) {
  return {{"mean", s.mean}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}};
}

void spread_row(io::TextTable& t, const std::string& what, double ideal, const gp::Spread& s, std::string (*show)(double)) {
  t.add_row({what, show(ideal), show(s.mean), show(s.p10), show(s.p50), show(s.p90), show(s.mean - ideal)});
}

std::string usd(double v) { return io::format_usd(v); }
std::string tonnes(double kg) { return fmt::format("{} t", io::significant(kg / 1e3)); }
std::string energy(double kwh) { return io::with_prefix(kwh * 1e3, io::Prefixes::si, "Wh"); }

}  // namespace

std::string goodput_summary(const models::Scenario& scenario, const GoodputReport& r) {
  std::string out = io::scenario_header(
      scenario, fmt::format("goodput of {} devices of {} ({} nodes, {} spares), {} replicas", io::with_commas(r.devices),
                            scenario.cluster.accelerator.name, io::with_commas(r.nodes), io::with_commas(r.spares),
                            io::with_commas(r.replicas)));
  out += fmt::format("ideal run: {} iterations of {} ({}) = {}\n", io::with_commas(r.iterations),
                     io::format_picoseconds(r.iteration_time), r.iteration_simulated ? "simulated" : "given",
                     days(r.ideal_s));
  out += fmt::format("checkpoint: {} at {}: write {}, the job paused {} per checkpoint; restart {} (relaunch + reload)\n",
                     io::format_bytes(static_cast<double>(r.checkpoint_bytes)), io::format_bandwidth(r.storage_Bps),
                     io::format_seconds(r.write_s), io::format_seconds(r.stall_s), io::format_seconds(r.restart_s));
  out += fmt::format("interruptions: {} per day, one every {} (mean time between interruptions of the job)\n\n",
                     io::significant(86400.0 / r.mtbf_s), io::format_seconds(r.mtbf_s));

  io::TextTable time({"time to train", "ideal", "mean", "p10", "p50", "p90", "mean - ideal"},
                     {A::left, A::right, A::right, A::right, A::right, A::right, A::right});
  spread_row(time, "time", r.ideal_s, r.configured.time_s, days);
  time.add_row({"goodput", "1", io::format_percent(r.goodput.mean), io::format_percent(r.goodput.p10),
                io::format_percent(r.goodput.p50), io::format_percent(r.goodput.p90), ""});
  spread_row(time, "facility energy", r.ideal_tco.whole_run.facility_energy_kwh, r.energy_kwh, energy);
  spread_row(time, "cost", r.ideal_tco.whole_run.cost_usd, r.cost_usd, usd);
  spread_row(time, "carbon (CO2e)", r.ideal_tco.whole_run.carbon_kgco2e, r.carbon_kgco2e, tonnes);
  out += time.render();
  out += fmt::format("lost per run (mean): redone work {}, down (detection, spares, swap, restart) {}, checkpoints {}\n",
                     days(r.lost_s), days(r.down_s), days(r.checkpoint_s));
  out += fmt::format("closed form (Poisson classes, spares never short; what rackscale run shows): time {}, goodput {}, "
                     "{} interruptions\n\n",
                     days(r.closed_form.time_s), io::format_percent(r.closed_form.goodput()),
                     io::significant(r.closed_form.interruptions));

  io::TextTable classes({"interruption class", "per day", "per run", "lost", "down"},
                        {A::left, A::right, A::right, A::right, A::right});
  for (const ClassFigures& c : r.classes)
    classes.add_row({c.name, io::significant(c.per_day), io::significant(c.interruptions), days(c.lost_s), days(c.down_s)});
  out += classes.render();

  out += fmt::format("\ncheckpoint interval: configured {}, Young/Daly sqrt(2 x {} x {}) = {}, simulated optimum {} "
                     "(mean time {})\n",
                     io::format_seconds(r.configured.interval_s), io::format_seconds(r.stall_s),
                     io::format_seconds(r.mtbf_s), io::format_seconds(r.young_daly_s), io::format_seconds(r.optimum_s),
                     days(r.optimum_time_s));
  io::TextTable sweep({"interval", "mean time", "p10", "p90", "unfinished"}, {A::right, A::right, A::right, A::right, A::right});
  for (const IntervalFigures& f : r.sweep)
    sweep.add_row({io::format_seconds(f.interval_s), days(f.time_s.mean), days(f.time_s.p10), days(f.time_s.p90),
                   io::with_commas(f.unfinished)});
  out += sweep.render();
  out += fmt::format("{} interruptions simulated in {:.3f} s\n", io::with_commas(r.events), r.wall_s);
  return out;
}

nlohmann::ordered_json goodput_json(const models::Scenario& scenario, const GoodputReport& r) {
  nlohmann::ordered_json j;
  j["scenario"] = scenario.name;
  j["devices"] = r.devices;
  j["nodes"] = r.nodes;
  j["spares"] = r.spares;
  j["replicas"] = r.replicas;
  j["seed"] = r.seed;
  j["iteration_time_ps"] = r.iteration_time;
  j["iteration_simulated"] = r.iteration_simulated;
  j["iterations"] = r.iterations;
  j["ideal_time_s"] = r.ideal_s;
  j["checkpoint_bytes"] = r.checkpoint_bytes;
  j["storage_bandwidth_Bps"] = r.storage_Bps;
  j["checkpoint_write_s"] = r.write_s;
  j["checkpoint_stall_s"] = r.stall_s;
  j["restart_s"] = r.restart_s;
  j["mtbf_s"] = r.mtbf_s;
  j["interval_s"] = r.configured.interval_s;
  j["young_daly_interval_s"] = r.young_daly_s;
  j["optimal_interval_s"] = r.optimum_s;
  j["optimal_time_s"] = r.optimum_time_s;
  j["time_s"] = spread_json(r.configured.time_s);
  j["goodput"] = spread_json(r.goodput);
  j["lost_s"] = r.lost_s;
  j["down_s"] = r.down_s;
  j["checkpoint_s"] = r.checkpoint_s;
  j["closed_form_time_s"] = r.closed_form.time_s;
  j["facility_energy_kWh"] = spread_json(r.energy_kwh);
  j["cost_usd"] = spread_json(r.cost_usd);
  j["carbon_kgco2e"] = spread_json(r.carbon_kgco2e);
  auto& classes = j["classes"] = nlohmann::ordered_json::array();
  for (const ClassFigures& c : r.classes)
    classes.push_back({{"name", c.name}, {"per_day", c.per_day}, {"interruptions", c.interruptions}, {"lost_s", c.lost_s},
                       {"down_s", c.down_s}});
  auto& sweep = j["sweep"] = nlohmann::ordered_json::array();
  for (const IntervalFigures& f : r.sweep)
    sweep.push_back({{"interval_s", f.interval_s}, {"time_s", spread_json(f.time_s)}, {"unfinished", f.unfinished}});
  j["ideal_tco"] = io::tco_json(r.ideal_tco);
  j["effective_tco"] = io::tco_json(r.mean_tco);
  j["events"] = r.events;
  j["wall_s"] = r.wall_s;
  return j;
}

}  // namespace rackscale::app
