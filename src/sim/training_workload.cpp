#include "sim/training_workload.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <boost/mpi/collectives/all_gather.hpp>
#include <boost/serialization/vector.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "models/collectives/collective_engine.hpp"
#include "models/memory/memory_check.hpp"
#include "models/network/cabling.hpp"
#include "models/network/idle_device.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/tco_settings.hpp"
#include "pdes/error.hpp"
#include "pdes/rank_reduce.hpp"
#include "sim/critical_path.hpp"
#include "sim/one_replica.hpp"
#include "sim/training_goodput.hpp"

namespace rackscale::sim {

namespace net = models::network;
namespace acc = models::accelerator;
namespace wl = models::workload;

namespace {
// Uneven stages' layers, runs of equal stages folded: "7, 8 x 14, 7".
std::string stage_layers(const wl::TrainingLayout& l) {
  std::string out;
  for (std::uint32_t s = 0; s < l.pipeline();) {
    std::uint32_t run = 1;
    while (s + run < l.pipeline() && l.stage_layers(s + run) == l.stage_layers(s)) ++run;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", l.stage_layers(s));
    if (run > 1) out += fmt::format(" x {}", run);
    s += run;
  }
  return out;
}

std::string describe_layout(const wl::TrainingLayout& l) {
  const auto& p = l.parallel();
  const char* recompute = p.recompute == wl::Recompute::full ? "full" : p.recompute == wl::Recompute::selective ? "selective" : "no";
  const char* cp = l.context() > 1 && p.context_algorithm == wl::ContextAlgorithm::all_gather ? " all-gather" : "";
  return fmt::format("TP {} x PP {} x DP {} (CP{} {}, EP {}){}, {}{}, ZeRO {}, {} recomputation; global batch {}, "
                     "micro-batch {}, {} micro-batches per replica; stack {}",
                     l.tensor(), l.pipeline(), l.data(), cp, l.context(), l.expert(), p.sequence_parallel ? " with SP" : "",
                     l.virtual_stages() > 1 ? fmt::format("interleaved 1F1B x{}", l.virtual_stages()) : std::string("1F1B"),
                     l.even_stages() ? std::string() : fmt::format(" (layers per stage {})", stage_layers(l)),
                     p.zero_stage, recompute, p.global_batch, p.micro_batch, l.micro_batches(), l.stack().name);
}

// The breakdown's components: the statistic of each (summed over devices, one row per pipeline stage)
// and where it goes in the report's mean.
struct BreakdownPart {
  const char* statistic;
  pdes::SimTime acc::TimeBreakdown::*time;
  double wl::MeanBreakdown::*mean;
};
constexpr std::array<BreakdownPart, 8> kParts{{
    {"breakdown_forward_ps", &acc::TimeBreakdown::forward, &wl::MeanBreakdown::forward},
    {"breakdown_backward_ps", &acc::TimeBreakdown::backward, &wl::MeanBreakdown::backward},
    {"breakdown_recompute_ps", &acc::TimeBreakdown::recompute, &wl::MeanBreakdown::recompute},
    {"breakdown_optimizer_ps", &acc::TimeBreakdown::optimizer, &wl::MeanBreakdown::optimizer},
    {"breakdown_other_compute_ps", &acc::TimeBreakdown::other_compute, &wl::MeanBreakdown::other_compute},
    {"breakdown_exposed_communication_ps", &acc::TimeBreakdown::exposed_communication,
     &wl::MeanBreakdown::exposed_communication},
    {"breakdown_pipeline_bubble_ps", &acc::TimeBreakdown::pipeline_bubble, &wl::MeanBreakdown::pipeline_bubble},
    {"breakdown_idle_ps", &acc::TimeBreakdown::idle, &wl::MeanBreakdown::idle},
}};

// The collective tallies' statistics of one group: one row per collective kind.
struct TallyFigures {
  std::string calls, bytes, time, longest;
};
// The mean over `devices` and `iterations` of each component's sum.
wl::MeanBreakdown mean_breakdown(const std::array<std::uint64_t, kParts.size()>& sums, double devices, double iterations) {
  const double d = devices * iterations;
  wl::MeanBreakdown mean;
  for (std::size_t k = 0; k < kParts.size(); ++k) mean.*kParts[k].mean = static_cast<double>(sums[k]) / d;
  return mean;
}

TallyFigures tally_figures(std::size_t group) {
  const std::string prefix = fmt::format("collective_{}_", wl::group_name(static_cast<acc::GroupKind>(group)));
  return {prefix + "calls", prefix + "bytes", prefix + "time_ps", prefix + "longest_ps"};
}
}  // namespace

TrainingWorkload::TrainingWorkload(Session& session, TrainingTrace& trace, TrainingObserver on_finished)
    : session_(session),
      trace_(trace),
      on_finished_(std::move(on_finished)),
      plan_((session.phase(fmt::format("building the training plan of {} devices", session.topology().device_count())),
             wl::build_training_plan(session.scenario().workload.training, session.scenario().cluster))),
      groups_(plan_.layout),
      layouts_(std::make_shared<models::collectives::MemberLayouts>()) {
  const net::ClusterSpec& cluster = session.scenario().cluster;
  report_.memory_warning = models::memory::check_memory(plan_.layout, cluster.accelerator);
  if (!report_.memory_warning.empty()) spdlog::warn("{}", report_.memory_warning);
  report_.memory = plan_.memory;
  report_.memory_capacity = cluster.accelerator.memory_bytes;
  trace_.prepare(plan_);
  for (const auto& program : plan_.programs)
    indexes_.push_back(std::make_shared<acc::ProgramIndex>(program, cluster.accelerator));

  session.fill_header(report_);
  report_.layout = describe_layout(plan_.layout);
  const wl::TrainingLayout& l = plan_.layout;
  report_.sizes = {l.tensor(), l.pipeline(), l.data(), l.context(), l.expert(), l.virtual_stages(), l.micro_batches(),
                   l.devices_per_role()};
  report_.iterations = session.scenario().workload.training.iterations;
  report_.tokens_per_iteration = l.tokens_per_iteration();
  report_.model_flops = plan_.model_flops;
  report_.mfu_formula = wl::model_flops_formula(l.model());
  report_.stack = l.stack().name;
  report_.hardware_flops = plan_.hardware_flops;
  report_.parameters = plan_.parameters;
  report_.active_parameters = plan_.active_parameters;
  if (session.scenario().workload.training.simulated_replicas == wl::SimulatedReplicas::one) {
    session.phase("checking that the data-parallel replicas are placed alike");
    mirror_ = one_replica_mirror(l, cluster, session.topology());
    spdlog::info("one replica for all: the {} devices of replica 0 act for the {} data-parallel replicas",
                 l.devices() / l.data(), l.data());
  }
}

std::unique_ptr<net::DeviceBehaviour> TrainingWorkload::make_device(std::uint32_t device) {
  if (!mirror_.simulated(device)) {
    idle_.push_back(device);
    return std::make_unique<net::IdleDevice>();
  }
  const models::Scenario& scenario = session_.scenario();
  auto executor = std::make_unique<acc::DeviceExecutor>(
      indexes_[plan_.layout.role_of(device)],
      std::make_unique<wl::TrainingRole>(plan_, groups_, device),
      models::collectives::make_collective_engine(scenario.cluster, session_.topology(), {}, layouts_), tallies_,
      scenario.workload.training.iterations, trace_.recorder(device));
  if (const acc::VariabilitySpec& variability = scenario.workload.training.variability; variability.any())
    executor->set_variation(acc::ComputeVariation(variability, scenario.simulation.seed, device));
  executors_.emplace_back(device, executor.get());
  return executor;
}

pdes::WorkDone TrainingWorkload::work() const {
  pdes::WorkDone work;
  for (const auto& entry : executors_) work += entry.second->work();
  return work;
}

bool TrainingWorkload::varies() const {
  const models::Scenario& scenario = session_.scenario();
  return scenario.workload.training.variability.any() || !scenario.cluster.degraded_links.empty();
}

const std::vector<std::uint64_t>& TrainingWorkload::port_busy(const FinishedRun& run) {
  if (port_busy_.empty()) {
    port_busy_.assign(run.counters.size(), 0);
    pdes::reduce_to_all(run.comm, run.counters.busy(), port_busy_, pdes::Reduction::sum);
  }
  return port_busy_;
}

void TrainingWorkload::collect_device_stats(const boost::mpi::communicator& comm) {
  device_stats_.clear();
  for (const auto& [device, executor] : executors_) device_stats_.emplace_back(device, &executor->stats());
  if (mirror_.replicas() == 1) return;
  // Each simulated device's statistics as one row of words: device, breakdown, bytes, iteration ends.
  std::vector<std::uint64_t> mine;
  for (const auto& [device, stats] : device_stats_) {
    const acc::TimeBreakdown& b = stats->breakdown;
    mine.insert(mine.end(), {device, b.forward, b.backward, b.recompute, b.optimizer, b.other_compute,
                             b.exposed_communication, b.pipeline_bubble, b.idle, stats->pipeline_bytes,
                             stats->context_bytes, stats->iteration_end.size()});
    mine.insert(mine.end(), stats->iteration_end.begin(), stats->iteration_end.end());
  }
  std::vector<std::vector<std::uint64_t>> all;
  boost::mpi::all_gather(comm, mine, all);
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> slot(plan_.layout.devices(), kNone);
  twin_stats_.clear();
  for (const auto& rows : all)
    for (std::size_t at = 0; at < rows.size();) {
      const std::uint64_t* w = &rows[at];
      acc::DeviceStats stats;
      stats.breakdown = {w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]};
      stats.pipeline_bytes = w[9];
      stats.context_bytes = w[10];
      stats.iteration_end.assign(w + 12, w + 12 + w[11]);
      slot[w[0]] = twin_stats_.size();
      twin_stats_.push_back(std::move(stats));
      at += 12 + w[11];
    }
  for (const std::uint32_t device : idle_) {
    const std::size_t s = slot[mirror_.origin(device)];
    if (s == kNone) throw std::logic_error(fmt::format("one-replica run: no statistics for device {}'s twin", device));
    device_stats_.emplace_back(device, &twin_stats_[s]);
  }
  std::sort(device_stats_.begin(), device_stats_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

void TrainingWorkload::record(const FinishedRun& run, pdes::StatisticRegistry& registry) {
  collect_device_stats(run.comm);
  const std::uint32_t iterations = session_.scenario().workload.training.iterations;
  const std::uint32_t stages = plan_.layout.pipeline();
  auto ends = registry.values("iteration_end_ps", "ps", "when the last device finished each iteration",
                              pdes::Combine::max, std::max<std::uint32_t>(iterations, 1));
  auto unfinished = registry.values("unfinished_devices", "devices",
                                    "devices that did not finish every iteration before the end time", pdes::Combine::sum);
  auto devices = registry.values("devices_by_stage", "devices", "devices of each pipeline stage", pdes::Combine::sum, stages);
  auto done = registry.values("last_iteration_end_by_stage_ps", "ps",
                              "the ends of the devices' last iterations, summed per pipeline stage", pdes::Combine::sum,
                              stages);
  std::vector<pdes::Statistic> parts;
  for (const BreakdownPart& part : kParts)
    parts.push_back(registry.values(part.statistic, "ps", "device time summed per pipeline stage, before the drain",
                                    pdes::Combine::sum, stages));
  for (const auto& [device, stats] : device_stats_) {
    const acc::DeviceStats& s = *stats;
    if (s.iteration_end.size() < iterations) unfinished.record(1);
    for (std::size_t i = 0; i < s.iteration_end.size(); ++i) ends.record(s.iteration_end[i], i);
    const std::size_t stage = plan_.layout.role_of(device);
    devices.record(1, stage);
    done.record(s.iteration_end.empty() ? 0 : s.iteration_end.back(), stage);
    for (std::size_t k = 0; k < kParts.size(); ++k) parts[k].record(s.breakdown.*kParts[k].time, stage);
  }

  for (std::size_t g = 0; g < tallies_.by_group_and_kind.size(); ++g) {
    const auto& row = tallies_.by_group_and_kind[g];
    const TallyFigures names = tally_figures(g);
    auto calls = registry.values(names.calls, "calls", "collective calls by kind, over devices", pdes::Combine::sum, row.size());
    auto bytes = registry.values(names.bytes, "bytes", "collective bytes by kind, over devices", pdes::Combine::sum, row.size());
    auto time = registry.values(names.time, "ps", "collective time by kind, summed over devices", pdes::Combine::sum,
                                row.size());
    auto longest = registry.values(names.longest, "ps", "the longest collective call by kind", pdes::Combine::max,
                                   row.size());
    // In a one-replica run each call here stands for as many calls as there are replicas.
    const std::uint64_t copies = mirror_.replicas();
    for (std::size_t k = 0; k < row.size(); ++k) {
      calls.record(copies * row[k].calls, k);
      bytes.record(copies * row[k].bytes, k);
      time.record(copies * row[k].time, k);
      longest.record(row[k].longest, k);
    }
  }
  if (varies()) {
    record_critical_path(run.comm,
                         {&run.topology, executors_, port_busy(run), session_.scenario().cluster.degraded_links,
                          perfect_iteration_},
                         registry);
  }
}

void TrainingWorkload::finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) {
  const models::Scenario& scenario = session_.scenario();
  const std::uint32_t iterations = scenario.workload.training.iterations;
  const wl::TrainingLayout& layout = plan_.layout;
  report_.setup_seconds = session_.setup_seconds();
  report_.statistics = figures;

  // Iteration ends: the last device to finish each iteration.
  const auto& end_values = figures["iteration_end_ps"].values;
  const std::vector<pdes::SimTime> ends(end_values.begin(), end_values.begin() + iterations);
  if (const std::uint64_t unfinished = figures["unfinished_devices"].values[0]; unfinished > 0)
    throw pdes::SimulationError(0, fmt::format("{} devices did not finish their {} iteration(s) before the end time "
                                               "({}): raise simulation.end",
                                               unfinished, iterations, pdes::format_time(scenario.simulation.end)));
  const pdes::SimTime run_end = ends.empty() ? 0 : ends.back();

  // This rank's devices over the run. A device that finished its last iteration before the last device
  // did waited for it (in a pipeline, the drain): charge that wait, so every device's breakdown adds up
  // to the run's time.
  const std::uint32_t stages = layout.pipeline();
  const auto drain = stages > 1 ? &acc::TimeBreakdown::pipeline_bubble : &acc::TimeBreakdown::idle;
  std::vector<wl::DeviceRun> local;
  local.reserve(device_stats_.size());
  for (const auto& [device, stats] : device_stats_) {
    const auto& s = *stats;
    wl::DeviceRun row{device, s.breakdown, s.iteration_end, s.pipeline_bytes, s.context_bytes};
    const pdes::SimTime done = s.iteration_end.empty() ? 0 : s.iteration_end.back();
    row.breakdown.*drain += run_end - done;
    if (run_end > done && mirror_.simulated(device))  // a device that ran has a trace
      trace_.recorder(device).wait(stages > 1 ? acc::WaitCause::pipeline_bubble : acc::WaitCause::idle, acc::kNoOp,
                                   iterations - 1, done, run_end);
    local.push_back(std::move(row));
  }
  std::sort(local.begin(), local.end(), [](const auto& a, const auto& b) { return a.device < b.device; });

  pdes::SimTime previous = 0;
  for (const auto end : ends) {
    report_.iteration_times.push_back(end - previous);
    previous = end;
  }
  report_.iteration_time = report_.iteration_times.empty() ? 0 : report_.iteration_times.back();
  if (varies())
    report_.variability = critical_path_report(figures, run.topology, scenario.cluster.degraded_links,
                                               scenario.workload.training.variability, scenario.simulation.seed,
                                               report_.iteration_time);
  const double seconds = pdes::to_seconds(report_.iteration_time);
  const double peak = static_cast<double>(report_.devices) * scenario.cluster.accelerator.peak_bf16_flops;
  if (seconds > 0) {
    report_.tokens_per_second = static_cast<double>(report_.tokens_per_iteration) / seconds;
    report_.mfu = plan_.model_flops / (seconds * peak);
    report_.hfu = plan_.hardware_flops / (seconds * peak);
    report_.per_device_tflops = plan_.hardware_flops / (seconds * static_cast<double>(report_.devices)) / 1e12;
  }

  // Mean breakdowns: per stage over its devices, and over every device. Each stage's drain is its devices
  // times the run's end less the ends of their last iterations, exactly the waits charged above.
  const auto& stage_devices = figures["devices_by_stage"].values;
  const auto& stage_done = figures["last_iteration_end_by_stage_ps"].values;
  std::array<std::uint64_t, kParts.size()> all{};
  for (std::uint32_t stage = 0; stage < stages; ++stage) {
    std::array<std::uint64_t, kParts.size()> sums{};
    for (std::size_t k = 0; k < kParts.size(); ++k) {
      sums[k] = figures[kParts[k].statistic].values[stage];
      if (kParts[k].time == drain) sums[k] += stage_devices[stage] * run_end - stage_done[stage];
      all[k] += sums[k];
    }
    report_.breakdown_by_stage.push_back(mean_breakdown(sums, static_cast<double>(layout.devices_per_role()), iterations));
  }
  report_.breakdown = mean_breakdown(all, static_cast<double>(report_.devices), iterations);

  // Collective tallies: counts, bytes and times add; the longest call is the maximum.
  for (std::size_t g = 0; g < tallies_.by_group_and_kind.size(); ++g) {
    const TallyFigures names = tally_figures(g);
    const auto& calls = figures[names.calls].values;
    const auto& bytes = figures[names.bytes].values;
    const auto& time = figures[names.time].values;
    const auto& longest = figures[names.longest].values;
    for (std::size_t k = 0; k < calls.size(); ++k) {
      if (calls[k] == 0) continue;
      report_.collectives.push_back({static_cast<acc::GroupKind>(g), static_cast<acc::CollectiveKind>(k),
                                     {calls[k], bytes[k], time[k], longest[k]}});
    }
  }
  report_.simulated_time = run_end;
  meter_energy(run);
  report_.engine = pdes::gather_stats(run.comm, run.engine_stats);
  trace_.finish(run.comm, plan_, ends);
  on_finished_({run.topology, run.rack_rank, run.engine, run.engine_stats, run.counters, layout, local, run_end, report_});
}

// Energy of the cluster over the simulated time: each rank meters the components it owns (port busy
// times summed over ranks first, since a message's ports are charged by whichever rank carried it),
// then the exact per-class limbs are summed over ranks.
void TrainingWorkload::meter_energy(const FinishedRun& run) {
  namespace power = models::power;
  const models::Scenario& scenario = session_.scenario();
  const net::Topology& topology = run.topology;
  const auto& settings = scenario.tco;
  const power::ClusterPower levels = power::cluster_power(scenario.cluster, settings.host_idle_watts,
                                                          settings.host_active_watts, settings.memory_bound_activity);
  const std::vector<std::uint64_t>& port_busy = this->port_busy(run);
  std::vector<std::pair<std::uint32_t, power::AcceleratorActivity>> devices;
  // The accelerator model does not split compute- from memory-bound time: all of it is compute-bound.
  for (const auto& [device, stats] : device_stats_) devices.push_back({device, {stats->breakdown.compute(), 0}});
  std::sort(devices.begin(), devices.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<net::NodeId> switches;
  for (net::NodeId node = 0; node < topology.nodes.size(); ++node)
    if (topology.nodes[node].kind == net::NodeKind::switch_node && run.engine.is_local(node)) switches.push_back(node);

  const net::Cabling cabling = net::plan_cabling(topology, scenario.cluster);
  const models::tco::HardwareInventory inventory =
      models::tco::inventory_of(topology, scenario.cluster, cabling, levels, settings.inputs.prices);
  report_.bom = inventory.bom;
  const power::MeteredEnergy mine = power::meter_components(
      {topology, scenario.cluster, levels, report_.simulated_time, devices, switches, port_busy, cabling.port_optics_mw});
  // The limbs depend on the reduced port busy times: a second, small reduction.
  pdes::StatisticRegistry energy;
  auto limbs = energy.values("energy_limbs", "mJ, fJ", "energy by component class, as exact limbs", pdes::Combine::sum,
                             power::ClassEnergy::kLimbs);
  const auto own = mine.by_class.limbs();
  for (std::size_t i = 0; i < own.size(); ++i) limbs.record(own[i], i);
  const auto total = energy.reduce(run.comm)["energy_limbs"].values;
  report_.energy = power::ClassEnergy::from_limbs(std::span<const std::uint64_t, power::ClassEnergy::kLimbs>(total));
  report_.device_energy = mine.devices;

  const double seconds = pdes::to_seconds(report_.simulated_time);
  if (seconds <= 0) return;
  report_.mean_it_watts = report_.energy.total().joules() / seconds;
  // The mean power over every simulated iteration, over the steady-state iteration's time.
  const double per_iteration = pdes::to_seconds(report_.iteration_time) / seconds;
  auto& e = report_.energy_per_iteration_joules;
  e.accelerators = report_.energy.accelerators.joules() * per_iteration;
  e.hosts = report_.energy.hosts.joules() * per_iteration;
  e.nics = report_.energy.nics.joules() * per_iteration;
  e.switches = report_.energy.switches.joules() * per_iteration;
  e.optics = report_.energy.optics.joules() * per_iteration;
  if (report_.iteration_time == 0) return;

  models::tco::RunMeasures measures;
  measures.iteration_time = report_.iteration_time;
  // With a token budget, the whole run is as many iterations as it takes; without, the ones simulated.
  measures.iterations = settings.inputs.token_budget > 0 ? 0 : report_.iterations;
  measures.tokens_per_iteration = report_.tokens_per_iteration;
  measures.devices = report_.devices;
  measures.it_joules_per_iteration = e;
  report_.tco = models::tco::compute_tco(settings, inventory, measures, scenario.cluster.accelerator.name);
  report_.goodput = training_goodput(scenario, report_, measures, inventory, levels);
}

}  // namespace rackscale::sim
