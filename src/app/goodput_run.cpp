#include "app/goodput_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "app/accounting_inputs.hpp"
#include "app/training_run.hpp"
#include "models/goodput/checkpoint_costs.hpp"
#include "models/tco/accounting.hpp"
#include "models/tco/run_measures.hpp"
#include "models/workload/training_layout.hpp"
#include "sim/training_goodput.hpp"

namespace rackscale::app {
namespace {

namespace gp = models::goodput;
namespace wl = models::workload;

constexpr double kPsPerSecond = 1e12;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool is_training(const models::Scenario& s) { return s.workload.kind == models::WorkloadKind::training; }

pdes::SimTime seconds_to_ps(double seconds) { return static_cast<pdes::SimTime>(std::llround(seconds * kPsPerSecond)); }

// A whole number of iterations, at least one and at most the run.
pdes::SimTime in_iterations(double seconds, pdes::SimTime iteration, std::uint64_t iterations) {
  const double k = std::round(seconds * kPsPerSecond / static_cast<double>(iteration));
  const auto whole = static_cast<std::uint64_t>(std::clamp(k, 1.0, static_cast<double>(iterations)));
  return whole * iteration;
}

IntervalFigures interval_figures(const gp::MonteCarloResult& r, std::size_t schedule, pdes::SimTime interval) {
  IntervalFigures f;
  f.interval_s = pdes::to_seconds(interval);
  std::vector<double> times;
  for (const auto& replica : r.outcomes) {
    if (replica[schedule].finish == pdes::kNever) ++f.unfinished;
    else times.push_back(pdes::to_seconds(replica[schedule].finish));
  }
  f.time_s = gp::spread_of(std::move(times));
  return f;
}

}  // namespace

GoodputReport run_goodput(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                          const GoodputRequest& request, const RunOptions& options) {
  const gp::GoodputSpec& spec = scenario.goodput;
  GoodputReport rep;
  rep.devices = scenario.cluster.devices();
  std::uint64_t tokens_per_iteration = 0;
  if (is_training(scenario)) {
    const wl::TrainingLayout layout(scenario.workload.training, scenario.cluster.devices());
    rep.devices = layout.devices();
    tokens_per_iteration = layout.tokens_per_iteration();
  }
  rep.nodes = sim::job_nodes(scenario, rep.devices);

  // The ideal run: iterations of the simulated (or given) time.
  if (request.iteration_time) {
    rep.iteration_time = *request.iteration_time;
  } else {
    if (!is_training(scenario))
      throw std::invalid_argument("--iteration-time: expected a duration when the workload is not training, found none");
    rep.iteration_time = run_training(comm, scenario, options).iteration_time;
    rep.iteration_simulated = true;
  }
  if (rep.iteration_time == 0) throw std::invalid_argument("--iteration-time: expected a duration > 0, found 0");
  if (request.days) {
    rep.iterations = static_cast<std::uint64_t>(std::ceil(*request.days * 86400.0 * kPsPerSecond /
                                                          static_cast<double>(rep.iteration_time)));
  } else {
    if (!is_training(scenario) || scenario.tco.inputs.token_budget == 0)
      throw std::invalid_argument("tco.token_budget: expected a token budget (or --days), found none");
    rep.iterations = models::tco::iterations_for_tokens(scenario.tco.inputs.token_budget, tokens_per_iteration);
  }
  rep.iterations = std::max<std::uint64_t>(rep.iterations, 1);
  const double work_ps = static_cast<double>(rep.iterations) * static_cast<double>(rep.iteration_time);
  if (work_ps > static_cast<double>(pdes::kNever) / 2)
    throw std::invalid_argument(fmt::format("goodput: the ideal run ({:.4g} days) exceeds half the simulator's "
                                            "clock (106 days)", work_ps / kPsPerSecond / 86400));
  rep.ideal_s = work_ps / kPsPerSecond;

  // Checkpoints, restarts and interruptions.
  rep.checkpoint_bytes = sim::checkpoint_bytes(scenario);
  const gp::CheckpointCosts checkpoint = gp::checkpoint_costs(spec, rep.nodes, rep.checkpoint_bytes);
  rep.storage_Bps = checkpoint.storage_Bps;
  rep.write_s = checkpoint.write_s;
  rep.restart_s = checkpoint.restart_s;  // relaunch + reload: reading what was written
  rep.stall_s = checkpoint.stall_s;
  const bool asynchronous = spec.checkpoint.mode == gp::CheckpointMode::asynchronous;
  const pdes::SimTime write = seconds_to_ps(rep.write_s);

  gp::RunPlan plan;
  plan.work = rep.iterations * rep.iteration_time;
  plan.classes = gp::class_processes(spec.failures, {static_cast<double>(rep.devices), static_cast<double>(rep.nodes)});
  plan.detection = spec.detection;
  plan.restart = spec.relaunch + write;
  plan.hot_swap = spec.hot_swap;
  plan.repair = spec.repair;
  plan.spares = spec.spares.value_or(static_cast<std::uint32_t>((rep.nodes + 99) / 100));
  rep.spares = plan.spares;
  plan.replicas = request.replicas;
  plan.seed = request.seed != 0 ? request.seed : scenario.simulation.seed;
  rep.replicas = plan.replicas;
  rep.seed = plan.seed;
  const double rate = gp::job_rate_per_hour(plan.classes);
  rep.mtbf_s = rate > 0 ? 3600.0 / rate : kInfinity;
  // Young/Daly on the pause a checkpoint costs; an asynchronous write must end before the next begins.
  rep.young_daly_s = std::max(gp::young_daly_interval(rep.stall_s, rep.mtbf_s), asynchronous ? rep.write_s - rep.stall_s : 0.0);
  if (!std::isfinite(rep.young_daly_s)) rep.young_daly_s = rep.ideal_s;
  const pdes::SimTime configured = spec.checkpoint.interval
                                       ? in_iterations(pdes::to_seconds(*spec.checkpoint.interval), rep.iteration_time, rep.iterations)
                                       : in_iterations(rep.young_daly_s, rep.iteration_time, rep.iterations);
  std::vector<pdes::SimTime> intervals{configured};
  for (int k = -8; k <= 8; ++k)  // Young/Daly x 2^(k/4): a quarter to four times
    intervals.push_back(in_iterations(rep.young_daly_s * std::pow(2.0, k / 4.0), rep.iteration_time, rep.iterations));
  for (const pdes::SimTime interval : intervals)
    plan.schedules.push_back(gp::make_schedule(interval, write, asynchronous, spec.checkpoint.overlap));

  const gp::MonteCarloResult result = gp::run_replicas(comm, plan, {options.queue, options.sync});
  rep.events = result.events;
  rep.wall_s = result.wall_s;

  rep.configured = interval_figures(result, 0, configured);
  if (rep.configured.unfinished > 0)
    throw std::invalid_argument(fmt::format(
        "goodput: {} of {} replicas do not finish within the simulator's clock (213 days); shorten the run (--days)",
        rep.configured.unfinished, rep.replicas));
  const double n = rep.replicas;
  std::vector<double> goodputs;
  for (const auto& replica : result.outcomes) {
    const gp::ScheduleOutcome& o = replica[0];
    goodputs.push_back(rep.ideal_s / pdes::to_seconds(o.finish));
    rep.lost_s += pdes::to_seconds(o.lost) / n;
    rep.down_s += pdes::to_seconds(o.down) / n;
  }
  rep.goodput = gp::spread_of(goodputs);
  rep.checkpoint_s = rep.configured.time_s.mean - rep.ideal_s - rep.lost_s - rep.down_s;
  for (std::size_t c = 0; c < plan.classes.size(); ++c) {
    const gp::ClassProcess& p = plan.classes[c];
    ClassFigures f{p.name, std::isfinite(p.mean_ps) ? 86400.0 * kPsPerSecond / p.mean_ps : 0.0, 0, 0, 0};
    for (const auto& replica : result.classes) {  // in replica order: the same sum on every rank
      f.interruptions += static_cast<double>(replica[c].interruptions) / n;
      f.lost_s += pdes::to_seconds(replica[c].lost) / n;
      f.down_s += pdes::to_seconds(replica[c].down) / n;
    }
    rep.classes.push_back(f);
  }

  // The sweep's best interval: least mean time over the finished replicas of each.
  std::vector<double> sweep_intervals, sweep_means;
  for (std::size_t s = 1; s < intervals.size(); ++s) {
    rep.sweep.push_back(interval_figures(result, s, intervals[s]));
    sweep_intervals.push_back(rep.sweep.back().interval_s);
    sweep_means.push_back(rep.sweep.back().unfinished > 0 ? kInfinity : rep.sweep.back().time_s.mean);
  }
  const gp::SweepOptimum optimum = gp::sweep_optimum(sweep_intervals, sweep_means);
  rep.optimum_s = optimum.interval;
  rep.optimum_time_s = optimum.mean_time;
  rep.closed_form = sim::expected_run_model(scenario, rep.devices)
                        .expected(pdes::to_seconds(rep.iteration_time), rep.iterations);

  // Cost and carbon: the whole cluster over the run, idle while the job is down.
  const models::tco::TcoSettings& settings = scenario.tco;
  const auto [power, inventory] = accounting_inputs(scenario, settings);
  const double cluster_devices = static_cast<double>(inventory.counts.accelerators);
  const auto account = [&, &power = power, &inventory = inventory](double seconds, double idle_share) {
    models::tco::AccountingRequest a;
    a.device_hours = cluster_devices * seconds / 3600.0;
    a.utilization = request.utilization;
    a.idle_share = idle_share;
    return models::tco::account(settings, inventory, power, a, scenario.cluster.accelerator.name);
  };
  rep.ideal_tco = account(rep.ideal_s, 0.0);
  std::vector<double> costs, carbon, energy;
  for (const auto& replica : result.outcomes) {
    const double seconds = pdes::to_seconds(replica[0].finish);
    const models::tco::TcoReport r = account(seconds, pdes::to_seconds(replica[0].down) / seconds);
    costs.push_back(r.whole_run.cost_usd);
    carbon.push_back(r.whole_run.carbon_kgco2e);
    energy.push_back(r.whole_run.facility_energy_kwh);
  }
  rep.cost_usd = gp::spread_of(costs);
  rep.carbon_kgco2e = gp::spread_of(carbon);
  rep.energy_kwh = gp::spread_of(energy);
  rep.mean_tco = account(rep.configured.time_s.mean, rep.down_s / rep.configured.time_s.mean);
  return rep;
}

}  // namespace rackscale::app
