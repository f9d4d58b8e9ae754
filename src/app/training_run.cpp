#include "app/training_run.hpp"

#include <algorithm>
#include <chrono>
#include <functional>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "models/accelerator/device_executor.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/memory/memory_check.hpp"
#include "models/network/build_topology.hpp"
#include "app/memory_phase.hpp"
#include "models/network/cabling.hpp"
#include "models/network/network_lps.hpp"
#include "models/network/rack_graph.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/tco_settings.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_role.hpp"
#include "partition/partitioner.hpp"
#include "pdes/engine.hpp"
#include "pdes/error.hpp"
#include "pdes/rank_reduce.hpp"

namespace rackscale::app {

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

// The eight breakdown components, in MeanBreakdown's order.
constexpr std::size_t kParts = 8;
std::array<std::uint64_t, kParts> parts(const acc::TimeBreakdown& b) {
  return {b.forward, b.backward, b.recompute, b.optimizer, b.other_compute, b.exposed_communication, b.pipeline_bubble,
          b.idle};
}
wl::MeanBreakdown mean(const std::uint64_t* sums, double devices, double iterations) {
  const double d = devices * iterations;
  return {static_cast<double>(sums[0]) / d, static_cast<double>(sums[1]) / d, static_cast<double>(sums[2]) / d,
          static_cast<double>(sums[3]) / d, static_cast<double>(sums[4]) / d, static_cast<double>(sums[5]) / d,
          static_cast<double>(sums[6]) / d, static_cast<double>(sums[7]) / d};
}

// Energy of the cluster over the simulated time: each rank meters the components it owns (port busy
// times summed over ranks first, since a message's ports are charged by whichever rank carried it),
// then the exact per-class limbs are summed over ranks.
void meter_energy(const boost::mpi::communicator& comm, const pdes::Engine& engine, const net::Topology& topology,
                  const models::Scenario& scenario, const net::PortCounters& counters,
                  const std::vector<std::pair<std::uint32_t, const acc::DeviceExecutor*>>& executors,
                  wl::TrainingReport& report) {
  namespace power = models::power;
  const auto& settings = scenario.tco;
  const power::ClusterPower levels = power::cluster_power(scenario.cluster, settings.host_idle_watts,
                                                          settings.host_active_watts, settings.memory_bound_activity);
  std::vector<std::uint64_t> port_busy(counters.size(), 0);
  pdes::reduce_to_all(comm, counters.busy(), port_busy, pdes::Reduction::sum);
  std::vector<std::pair<std::uint32_t, power::AcceleratorActivity>> devices;
  // The accelerator model does not split compute- from memory-bound time: all of it is compute-bound.
  for (const auto& [device, executor] : executors) devices.push_back({device, {executor->stats().breakdown.compute(), 0}});
  std::sort(devices.begin(), devices.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<net::NodeId> switches;
  for (net::NodeId node = 0; node < topology.nodes.size(); ++node)
    if (topology.nodes[node].kind == net::NodeKind::switch_node && engine.is_local(node)) switches.push_back(node);

  const net::Cabling cabling = net::plan_cabling(topology, scenario.cluster);
  const models::tco::HardwareInventory inventory =
      models::tco::inventory_of(topology, scenario.cluster, cabling, levels, settings.inputs.prices);
  report.bom = inventory.bom;
  const power::MeteredEnergy mine = power::meter_components(
      {topology, scenario.cluster, levels, report.simulated_time, devices, switches, port_busy, cabling.port_optics_mw});
  const auto limbs = mine.by_class.limbs();
  std::array<std::uint64_t, power::ClassEnergy::kLimbs> total{};
  pdes::reduce_to_all(comm, limbs, total, pdes::Reduction::sum);
  report.energy = power::ClassEnergy::from_limbs(total);
  report.device_energy = mine.devices;

  const double seconds = pdes::to_seconds(report.simulated_time);
  if (seconds <= 0) return;
  report.mean_it_watts = report.energy.total().joules() / seconds;
  // The mean power over every simulated iteration, over the steady-state iteration's time.
  const double per_iteration = pdes::to_seconds(report.iteration_time) / seconds;
  auto& e = report.energy_per_iteration_joules;
  e.accelerators = report.energy.accelerators.joules() * per_iteration;
  e.hosts = report.energy.hosts.joules() * per_iteration;
  e.nics = report.energy.nics.joules() * per_iteration;
  e.switches = report.energy.switches.joules() * per_iteration;
  e.optics = report.energy.optics.joules() * per_iteration;
  if (report.iteration_time == 0) return;

  models::tco::RunMeasures measures;
  measures.iteration_time = report.iteration_time;
  // With a token budget, the whole run is as many iterations as it takes; without, the ones simulated.
  measures.iterations = settings.inputs.token_budget > 0 ? 0 : report.iterations;
  measures.tokens_per_iteration = report.tokens_per_iteration;
  measures.devices = report.devices;
  measures.it_joules_per_iteration = e;
  report.tco = models::tco::compute_tco(settings, inventory, measures, scenario.cluster.accelerator.name);
}
}  // namespace

wl::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                const RunOptions& options, const TrainingObserver& on_finished) {
  NoTrainingTrace no_trace;
  return run_training(comm, scenario, options, no_trace, on_finished);
}

wl::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                const RunOptions& options, TrainingTrace& trace, const TrainingObserver& on_finished) {
  const auto setup_start = std::chrono::steady_clock::now();
  const net::ClusterSpec& cluster = scenario.cluster;
  const wl::TrainingSpec& spec = scenario.workload.training;
  MemoryPhase phase("building the topology");
  const net::Topology topology = net::build_topology(cluster, scenario.network.routing);
  phase.set(fmt::format("building the training plan of {} devices", topology.device_count()));
  const wl::TrainingPlan plan = wl::build_training_plan(spec, cluster);

  wl::TrainingReport report;
  report.memory_warning = models::memory::check_memory(plan.layout, cluster.accelerator);
  if (!report.memory_warning.empty()) spdlog::warn("{}", report.memory_warning);
  report.memory = plan.memory;
  report.memory_capacity = cluster.accelerator.memory_bytes;
  trace.prepare(plan);

  const auto [method, rack_rank] = place_racks(comm, topology, scenario, options);
  pdes::Engine engine(comm, net::lp_rank_map(topology, rack_rank, comm.size()), engine_options_for(scenario, options));

  phase.set(fmt::format("building the LPs of {} devices and their network", topology.device_count()));
  std::vector<std::shared_ptr<const acc::ProgramIndex>> indexes;
  for (const auto& program : plan.programs) indexes.push_back(std::make_shared<acc::ProgramIndex>(program));
  net::NetworkContext network(topology, scenario.network);
  acc::CollectiveTallies tallies;
  models::collectives::CollectiveOptions collective_options;
  wl::GroupDirectory groups(plan.layout);
  std::vector<std::pair<std::uint32_t, const acc::DeviceExecutor*>> executors;  // this rank's, by device
  // One layout cache for the rank's engines: each group's member list is analysed once per rank.
  const auto layouts = std::make_shared<models::collectives::MemberLayouts>();
  net::add_network_lps(engine, network, [&](std::uint32_t device) {
    auto executor = std::make_unique<acc::DeviceExecutor>(
        cluster.accelerator, indexes[plan.layout.role_of(device)],
        std::make_unique<wl::TrainingRole>(plan, groups, device),
        models::collectives::make_collective_engine(cluster, topology, collective_options, layouts), tallies,
        spec.iterations,
        trace.recorder(device));
    executors.emplace_back(device, executor.get());
    return executor;
  });
  engine.set_work_gauge([&executors] {
    pdes::WorkDone work;
    for (const auto& entry : executors) work += entry.second->work();
    return work;
  });

  report.topology = topology.description;
  report.devices = topology.device_count();
  report.switches = topology.switch_count();
  report.cables = topology.link_count();
  report.racks = topology.racks.size();
  report.partition = net::partition_report(topology, method, rack_rank, comm.size());
  report.layout = describe_layout(plan.layout);
  const wl::TrainingLayout& l = plan.layout;
  report.sizes = {l.tensor(), l.pipeline(), l.data(), l.context(), l.expert(), l.virtual_stages(), l.micro_batches(),
                  l.devices_per_role()};
  report.iterations = spec.iterations;
  report.tokens_per_iteration = plan.layout.tokens_per_iteration();
  report.model_flops = plan.model_flops;
  report.mfu_formula = wl::model_flops_formula(plan.layout.model());
  report.stack = plan.layout.stack().name;
  report.hardware_flops = plan.hardware_flops;
  report.parameters = plan.parameters;
  report.active_parameters = plan.active_parameters;
  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  report.setup_seconds = boost::mpi::all_reduce(comm, setup, boost::mpi::maximum<double>());
  spdlog::info("simulating {} devices on {} rank(s) after {:.3f} s of setup", report.devices, comm.size(),
               report.setup_seconds);
  spdlog::debug("{} LPs on this rank", engine.local_lps().size());

  phase.set(fmt::format("simulating {} devices", report.devices));
  // A training run's state outside its LPs: the rank's port counters and collective tallies.
  prepare_checkpoints(comm, engine, options.checkpoints,
                      {"training", options.config_hash, pdes::partition_hash(engine.rank_map())},
                      {[&](pdes::CheckpointWriter& out) { out & network.counters & tallies; },
                       [&](pdes::CheckpointReader& in) { in & network.counters & tallies; },
                       nullptr});
  const pdes::EngineStats engine_stats = engine.run(scenario.simulation.end);
  throw_if_stopped(engine_stats, options.checkpoints);

  // Iteration ends: the last device to finish each iteration.
  std::vector<std::uint64_t> last_end(spec.iterations, 0), ends(spec.iterations, 0);
  std::uint64_t unfinished = 0;
  for (const auto& [device, executor] : executors) {
    const auto& own = executor->stats().iteration_end;
    if (own.size() < spec.iterations) ++unfinished;
    for (std::size_t i = 0; i < own.size(); ++i) last_end[i] = std::max(last_end[i], own[i]);
  }
  pdes::reduce_to_all(comm, last_end, ends, pdes::Reduction::max);
  unfinished = boost::mpi::all_reduce(comm, unfinished, std::plus<std::uint64_t>());
  if (unfinished > 0)
    throw pdes::SimulationError(0, fmt::format("{} devices did not finish their {} iteration(s) before the end time "
                                               "({}): raise simulation.end",
                                               unfinished, spec.iterations, pdes::format_time(scenario.simulation.end)));
  const pdes::SimTime run_end = ends.empty() ? 0 : ends.back();

  // This rank's devices over the run. A device that finished its last iteration before the last device
  // did waited for it (in a pipeline, the drain): charge that wait, so every device's breakdown adds up
  // to the run's time.
  const std::uint32_t stages = plan.layout.pipeline();
  std::vector<wl::DeviceRun> local;
  local.reserve(executors.size());
  for (const auto& [device, executor] : executors) {
    const auto& s = executor->stats();
    wl::DeviceRun row{device, s.breakdown, s.iteration_end, s.pipeline_bytes, s.context_bytes};
    const pdes::SimTime done = s.iteration_end.empty() ? 0 : s.iteration_end.back();
    (stages > 1 ? row.breakdown.pipeline_bubble : row.breakdown.idle) += run_end - done;
    if (run_end > done)
      trace.recorder(device).wait(stages > 1 ? acc::WaitCause::pipeline_bubble : acc::WaitCause::idle, acc::kNoOp,
                                  spec.iterations - 1, done, run_end);
    local.push_back(std::move(row));
  }
  std::sort(local.begin(), local.end(), [](const auto& a, const auto& b) { return a.device < b.device; });

  // Sums (over every device) of the breakdown components, per stage, as integers.
  std::vector<std::uint64_t> by_stage(static_cast<std::size_t>(stages) * kParts, 0), by_stage_all(by_stage.size(), 0);
  for (const auto& row : local) {
    const auto p = parts(row.breakdown);
    const std::size_t stage = plan.layout.role_of(row.device);
    for (std::size_t k = 0; k < kParts; ++k) by_stage[stage * kParts + k] += p[k];
  }
  pdes::reduce_to_all(comm, by_stage, by_stage_all, pdes::Reduction::sum);

  pdes::SimTime previous = 0;
  for (const auto end : ends) {
    report.iteration_times.push_back(end - previous);
    previous = end;
  }
  report.iteration_time = report.iteration_times.empty() ? 0 : report.iteration_times.back();
  const double seconds = pdes::to_seconds(report.iteration_time);
  const double peak = static_cast<double>(report.devices) * cluster.accelerator.peak_bf16_flops;
  if (seconds > 0) {
    report.tokens_per_second = static_cast<double>(report.tokens_per_iteration) / seconds;
    report.mfu = plan.model_flops / (seconds * peak);
    report.hfu = plan.hardware_flops / (seconds * peak);
    report.per_device_tflops = plan.hardware_flops / (seconds * static_cast<double>(report.devices)) / 1e12;
  }
  std::vector<std::uint64_t> all_parts(kParts, 0);
  for (std::uint32_t s = 0; s < stages; ++s) {
    for (std::size_t k = 0; k < kParts; ++k) all_parts[k] += by_stage_all[s * kParts + k];
    report.breakdown_by_stage.push_back(
        mean(&by_stage_all[s * kParts], plan.layout.devices_per_role(), spec.iterations));
  }
  report.breakdown = mean(all_parts.data(), static_cast<double>(report.devices), spec.iterations);

  // Collective tallies: counts, bytes and times add; the longest call is the maximum.
  std::vector<std::uint64_t> sums, longest;
  for (const auto& row : tallies.by_group_and_kind)
    for (const auto& t : row) {
      sums.insert(sums.end(), {t.calls, t.bytes, t.time});
      longest.push_back(t.longest);
    }
  std::vector<std::uint64_t> sums_all(sums.size(), 0), longest_all(longest.size(), 0);
  pdes::reduce_to_all(comm, sums, sums_all, pdes::Reduction::sum);
  pdes::reduce_to_all(comm, longest, longest_all, pdes::Reduction::max);
  std::size_t cell = 0;
  for (std::size_t g = 0; g < tallies.by_group_and_kind.size(); ++g)
    for (std::size_t k = 0; k < tallies.by_group_and_kind[g].size(); ++k, ++cell) {
      if (sums_all[3 * cell] == 0) continue;
      report.collectives.push_back({static_cast<acc::GroupKind>(g), static_cast<acc::CollectiveKind>(k),
                                    {sums_all[3 * cell], sums_all[3 * cell + 1], sums_all[3 * cell + 2], longest_all[cell]}});
    }
  report.simulated_time = ends.empty() ? 0 : ends.back();
  meter_energy(comm, engine, topology, scenario, network.counters, executors, report);
  report.engine = pdes::gather_stats(comm, engine_stats);
  trace.finish(comm, plan, ends);
  on_finished({topology, rack_rank, engine, engine_stats, network.counters, plan.layout, local, run_end, report});
  return report;
}

}  // namespace rackscale::app
