#include "io/goodput_figures.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "io/tco_figures.hpp"
#include "io/text_table.hpp"

namespace rackscale::io {

namespace wl = models::workload;
using A = TextTable::Align;

Figures goodput_figures(const wl::TrainingGoodput& g) {
  const auto& r = g.run;
  return {{"ideal_time_s", r.work_s},
          {"time_s", r.time_s},
          {"goodput", r.goodput()},
          {"lost_s", r.lost_s},
          {"down_s", r.down_s},
          {"checkpoint_s", r.checkpoint_s},
          {"interruptions", r.interruptions},
          {"mtbf_s", g.mtbf_s},
          {"interval_s", g.configured_interval_s},
          {"young_daly_interval_s", g.young_daly_s},
          {"optimal_interval_s", g.optimal_interval_s},
          {"checkpoint_bytes", g.checkpoint_bytes},
          {"storage_bandwidth_Bps", g.storage_Bps},
          {"checkpoint_write_s", g.write_s},
          {"checkpoint_stall_s", g.stall_s},
          {"restart_s", g.restart_s},
          {"nodes", g.nodes}};
}

Table goodput_class_table(const wl::TrainingGoodput& g) {
  std::vector<std::string> names;
  std::vector<double> per_day, interruptions, down;
  for (const auto& c : g.run.classes) {
    names.push_back(c.name);
    per_day.push_back(c.per_day);
    interruptions.push_back(c.interruptions);
    down.push_back(c.down_s);
  }
  return {{"name", "", "the interruption class (goodput.failures)", names},
          {"per_day", "1/day", "its interruptions per day of the whole job", per_day},
          {"interruptions", "", "expected in the whole run", interruptions},
          {"down_s", "s", "expected recovery time it causes in the whole run", down}};
}

nlohmann::ordered_json goodput_json(const wl::TrainingGoodput& g) {
  nlohmann::ordered_json j = figures_json(goodput_figures(g));
  j["classes"] = table_json(goodput_class_table(g));
  j["effective_tco"] = g.effective_tco ? tco_json(*g.effective_tco) : nlohmann::ordered_json(nullptr);
  return j;
}

std::string goodput_text(const wl::TrainingGoodput& g, const models::tco::TcoReport& ideal) {
  const auto& r = g.run;
  TextTable t({"goodput (expected, closed form)", "ideal", "expected", "difference"}, {A::left, A::right, A::right, A::right});
  t.add_row({"time to train", format_seconds(r.work_s), format_seconds(r.time_s), format_seconds(r.time_s - r.work_s)});
  t.add_row({"goodput", "100 %", format_percent(r.goodput()), ""});
  if (g.effective_tco) {
    const auto& e = g.effective_tco->whole_run;
    const auto& i = ideal.whole_run;
    const auto wh = [](double kwh) { return with_prefix(kwh * 1e3, Prefixes::si, "Wh"); };
    const Unit carbon = carbon_unit(std::max(i.carbon_kgco2e, e.carbon_kgco2e));
    const auto co2 = [&](double kg) { return format_carbon(kg, carbon); };
    t.add_row({"facility energy", wh(i.facility_energy_kwh), wh(e.facility_energy_kwh),
               wh(e.facility_energy_kwh - i.facility_energy_kwh)});
    t.add_row({"cost", format_usd(i.cost_usd), format_usd(e.cost_usd), format_usd(e.cost_usd - i.cost_usd)});
    t.add_row({"carbon (CO2e)", co2(i.carbon_kgco2e), co2(e.carbon_kgco2e), co2(e.carbon_kgco2e - i.carbon_kgco2e)});
  }
  std::string out = t.render();
  out += fmt::format("interruptions: {} per day, one every {}; {} expected in the run: redone work {}, down {}, "
                     "checkpoints {}\n",
                     significant(86400.0 / g.mtbf_s), format_seconds(g.mtbf_s), significant(r.interruptions),
                     format_seconds(r.lost_s), format_seconds(r.down_s), format_seconds(r.checkpoint_s));
  out += fmt::format("checkpoint: {} at {}: write {}, the job paused {}; restart {}; interval configured {}, "
                     "Young/Daly {}, optimum {}\n",
                     format_bytes(static_cast<double>(g.checkpoint_bytes)), format_bandwidth(g.storage_Bps),
                     format_seconds(g.write_s), format_seconds(g.stall_s), format_seconds(g.restart_s),
                     format_seconds(g.configured_interval_s), format_seconds(g.young_daly_s),
                     format_seconds(g.optimal_interval_s));
  out += "(rackscale goodput: the Monte Carlo with spreads, spares and Weibull classes; goodput.enabled: false hides this)\n\n";
  return out;
}

}  // namespace rackscale::io
