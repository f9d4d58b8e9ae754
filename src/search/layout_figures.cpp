#include "search/layout_figures.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/accelerator/compute_model.hpp"
#include "models/network/cabling.hpp"
#include "models/power/power_model.hpp"
#include "models/tco/tco_settings.hpp"
#include "models/tco/run_measures.hpp"

namespace rackscale::search {

Objective parse_objective(std::string_view text) {
  if (text == "time") return Objective::time;
  if (text == "cost") return Objective::cost;
  if (text == "carbon") return Objective::carbon;
  if (text == "tokens_per_dollar") return Objective::tokens_per_dollar;
  if (text == "goodput_time") return Objective::goodput_time;
  throw std::invalid_argument(
      fmt::format("--objective: expected time, goodput_time, cost, carbon or tokens_per_dollar, found '{}'", text));
}

const char* objective_name(Objective objective) noexcept {
  switch (objective) {
    case Objective::time: return "time";
    case Objective::cost: return "cost";
    case Objective::carbon: return "carbon";
    case Objective::tokens_per_dollar: return "tokens_per_dollar";
    case Objective::goodput_time: return "goodput_time";
  }
  return "time";
}

CostModel cost_model(const models::network::ClusterSpec& cluster, const models::network::Topology& topology,
                     const models::tco::TcoSettings& settings) {
  CostModel m;
  m.settings = settings;
  m.power = models::power::cluster_power(cluster, settings.host_idle_watts, settings.host_active_watts,
                                         settings.memory_bound_activity);
  m.inventory = models::tco::inventory_of(topology, cluster, models::network::plan_cabling(topology, cluster), m.power,
                                          settings.inputs.prices);
  m.accelerator = cluster.accelerator.name;
  m.peak_flops = models::accelerator::peak_flops(cluster.accelerator, models::accelerator::DType::bf16);
  m.devices = cluster.devices();
  return m;
}

RunFigures run_figures(const IterationFigures& it, std::uint64_t tokens_per_iteration, double model_flops,
                       const CostModel& costs) {
  if (it.iteration <= 0) throw std::invalid_argument("search: an iteration of zero time");
  RunFigures f;
  const double t = pdes::to_seconds(it.iteration);
  f.iteration_seconds = t;
  f.tokens_per_second = static_cast<double>(tokens_per_iteration) / t;
  f.mfu = model_flops / (t * static_cast<double>(costs.devices) * costs.peak_flops);
  f.exposed_share = static_cast<double>(it.exposed_communication) / static_cast<double>(it.iteration);
  f.bubble_share = static_cast<double>(it.pipeline_bubble) / static_cast<double>(it.iteration);
  const std::uint64_t budget = costs.settings.inputs.token_budget;
  f.iterations = budget > 0 ? models::tco::iterations_for_tokens(budget, tokens_per_iteration) : 1;
  f.time_to_train_seconds = t * static_cast<double>(f.iterations);
  f.goodput_time_seconds = costs.goodput ? costs.goodput->expected(t, f.iterations).time_s : f.time_to_train_seconds;
  // The TCO model's accounting without a simulation (models/tco/accounting.hpp: each accelerator and host
  // at the utilization between idle and active, the network idle plus its optics), stated per iteration
  // over the run's iterations: account() states the run as one iteration, which overflows the clock for
  // runs over about 213 days (slow layouts of big jobs).
  const double u = std::clamp(static_cast<double>(it.compute) / static_cast<double>(it.iteration), 0.0, 1.0);
  models::tco::RunMeasures m;
  m.iteration_time = it.iteration;
  m.iterations = f.iterations;
  m.tokens_per_iteration = tokens_per_iteration;
  m.devices = costs.devices;
  const auto& bom = costs.inventory.bom;
  models::tco::EnergyByClass& e = m.it_joules_per_iteration;
  e.accelerators = static_cast<double>(costs.devices) * models::power::power_watts(costs.power.accelerator, u) * t;
  e.hosts = static_cast<double>(costs.inventory.counts.hosts) * models::power::power_watts(costs.power.host, u) * t;
  e.nics = bom.nics ? static_cast<double>(bom.nics->count) * bom.nics->idle_watts * t : 0.0;
  for (const auto& s : bom.switches) e.switches += s.idle_watts * t;
  e.optics = bom.optics_watts() * t;
  models::tco::TcoSettings whole_run = costs.settings;
  whole_run.inputs.token_budget = 0;  // the run is given by its iterations
  const auto report = models::tco::compute_tco(whole_run, costs.inventory, m, costs.accelerator);
  f.cost_usd = report.whole_run.cost_usd;
  f.carbon_kg = report.whole_run.carbon_kgco2e;
  const double tokens = static_cast<double>(budget > 0 ? budget : tokens_per_iteration);
  f.tokens_per_dollar = f.cost_usd > 0 ? tokens / f.cost_usd : 0;
  return f;
}

double score(Objective objective, const RunFigures& f) noexcept {
  switch (objective) {
    case Objective::time: return f.time_to_train_seconds;
    case Objective::cost: return f.cost_usd;
    case Objective::carbon: return f.carbon_kg;
    case Objective::tokens_per_dollar: return f.tokens_per_dollar > 0 ? 1.0 / f.tokens_per_dollar : 1e300;
    case Objective::goodput_time: return f.goodput_time_seconds;
  }
  return f.time_to_train_seconds;
}

double floor_score(Objective objective, const RunFigures& floor, const CostModel& costs) noexcept {
  if (objective != Objective::goodput_time) return score(objective, floor);
  // expected(t, n) >= n t least_factor for any interval (each segment's expected time per unit of work is
  // at least the least over all intervals), and n t >= the floor's time to train.
  return costs.goodput ? floor.time_to_train_seconds * costs.goodput->least_factor() : floor.time_to_train_seconds;
}

std::string broken_limit(const RunLimits& limits, Objective objective, const RunFigures& f) {
  if (limits.budget_usd && f.cost_usd > *limits.budget_usd) return "over budget";
  const double time = objective == Objective::goodput_time ? f.goodput_time_seconds : f.time_to_train_seconds;
  if (limits.deadline_seconds && time > *limits.deadline_seconds) return "past the deadline";
  return "";
}

}  // namespace rackscale::search
