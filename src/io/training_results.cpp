#include "io/training_results.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "io/network_results.hpp"
#include "io/results_columns.hpp"
#include "io/tco_results.hpp"

namespace rackscale::io {

namespace acc = models::accelerator;
namespace wl = models::workload;
using hdf5::Group;

namespace {

// The breakdown components: dataset names, how to read them from a device's and from a mean
// breakdown, and what they mean.
struct Component {
  const char* name;
  pdes::SimTime acc::TimeBreakdown::*device;
  double wl::MeanBreakdown::*mean;
  const char* meaning;
};
constexpr std::array<Component, 8> kComponents{{
    {"forward_ps", &acc::TimeBreakdown::forward, &wl::MeanBreakdown::forward, "computing forward passes"},
    {"backward_ps", &acc::TimeBreakdown::backward, &wl::MeanBreakdown::backward, "computing backward passes"},
    {"recompute_ps", &acc::TimeBreakdown::recompute, &wl::MeanBreakdown::recompute,
     "recomputing activations for the backward pass"},
    {"optimizer_ps", &acc::TimeBreakdown::optimizer, &wl::MeanBreakdown::optimizer, "running the optimizer step"},
    {"other_compute_ps", &acc::TimeBreakdown::other_compute, &wl::MeanBreakdown::other_compute,
     "computing anything else (embedding, loss)"},
    {"exposed_communication_ps", &acc::TimeBreakdown::exposed_communication, &wl::MeanBreakdown::exposed_communication,
     "compute idle, waiting for a collective"},
    {"pipeline_bubble_ps", &acc::TimeBreakdown::pipeline_bubble, &wl::MeanBreakdown::pipeline_bubble,
     "compute idle, waiting for a pipeline transfer (with more than one stage, also the drain after the last iteration)"},
    {"idle_ps", &acc::TimeBreakdown::idle, &wl::MeanBreakdown::idle,
     "compute idle for no reason the program names (one stage: also the wait after the last iteration)"},
}};

std::vector<std::string> group_names() {
  std::vector<std::string> out;
  for (int g = 0; g <= static_cast<int>(acc::GroupKind::world); ++g) out.emplace_back(wl::group_name(static_cast<acc::GroupKind>(g)));
  return out;
}
std::vector<std::string> collective_names() {
  std::vector<std::string> out;
  for (int k = 0; k <= static_cast<int>(acc::CollectiveKind::all_to_all); ++k)
    out.emplace_back(wl::collective_name(static_cast<acc::CollectiveKind>(k)));
  return out;
}

void write_devices(Group& root, const NetworkRows& net, const wl::TrainingRunState& run) {
  const OwnedRows rows = net.devices();
  // This rank's devices by device index (run.devices is sorted, rows.make walks rows in order).
  std::vector<const wl::DeviceRun*> of_device(run.topology.device_count(), nullptr);
  for (const auto& d : run.devices) of_device[d.device] = &d;
  std::vector<const models::power::DeviceEnergy*> energy_of(run.topology.device_count(), nullptr);
  for (const auto& e : run.report.device_energy) energy_of[e.device] = &e;
  const auto device = [&](std::uint64_t d) -> const wl::DeviceRun& {
    if (of_device[d] == nullptr) throw std::logic_error(fmt::format("training results: device {} is not on this rank", d));
    return *of_device[d];
  };
  const auto coordinates = [&](std::uint64_t d) { return run.layout.coordinates(static_cast<std::uint32_t>(d)); };

  Group g = root.create_group("devices");
  g.set_attribute("description", "every device (accelerator), indexed by device index: its place in the job and "
                                 "where its time went over the whole run");
  write_column(g, "node", rows, rows.make([&](std::uint64_t d) { return run.topology.devices[d]; }), "",
               "the device's node id (row of /nodes)");
  write_column(g, "stage", rows, rows.make([&](std::uint64_t d) { return coordinates(d).pipeline; }), "",
               "pipeline stage (PP coordinate), which is also the device's role: the program it runs (row of /stages)");
  write_column(g, "tensor_rank", rows, rows.make([&](std::uint64_t d) { return coordinates(d).tensor; }), "",
               "rank in its tensor-parallel group (TP coordinate)");
  write_column(g, "context_rank", rows, rows.make([&](std::uint64_t d) { return coordinates(d).context; }), "",
               "rank in its context-parallel group (CP coordinate)");
  write_column(g, "data_rank", rows, rows.make([&](std::uint64_t d) { return coordinates(d).data; }), "",
               "rank in its data-parallel group (DP coordinate)");
  write_column(g, "expert_rank", rows, rows.make([&](std::uint64_t d) { return coordinates(d).expert; }), "",
               "rank in its expert-parallel group (EP coordinate)");
  write_column(g, "expert_data_rank", rows, rows.make([&](std::uint64_t d) { return coordinates(d).expert_data; }), "",
               "rank in its expert-data-parallel group");
  for (const Component& c : kComponents)
    write_column(g, c.name, rows, rows.make([&](std::uint64_t d) { return device(d).breakdown.*c.device; }), "ps",
                 fmt::format("over the whole run: {}", c.meaning));
  write_column(g, "pipeline_bytes_sent", rows, rows.make([&](std::uint64_t d) { return device(d).pipeline_bytes; }),
               "bytes", "activations and gradients sent to its pipeline neighbours");
  write_column(g, "context_bytes_sent", rows, rows.make([&](std::uint64_t d) { return device(d).context_bytes; }),
               "bytes", "ring attention's key/value blocks and their gradients sent to the next device of its CP ring");
  write_column(g, "peak_memory_bytes", rows,
               rows.make([&](std::uint64_t d) { return run.report.memory.at(coordinates(d).pipeline).total(); }),
               "bytes", "peak accelerator memory of its stage (memory model; /stages has the parts)");
  write_column(g, "energy_J", rows, rows.make([&](std::uint64_t d) {
                 if (energy_of[d] == nullptr)
                   throw std::logic_error(fmt::format("training results: no energy for device {} on this rank", d));
                 return energy_of[d]->accelerator.joules();
               }),
               "J", "the accelerator's IT energy over the whole run: idle power, rising to TDP while it computes "
                    "(docs/tco.md; hosts, NICs and switches are in /energy)");

  // Iteration ends: a 2-D table, devices x iterations, each rank writing its devices' rows.
  const std::uint64_t iterations = run.report.iterations;
  hdf5::Dataset ends = g.create_dataset<std::uint64_t>("iteration_end_ps", rows.rows(), iterations);
  std::vector<std::uint64_t> mine;
  mine.reserve(rows.mine().size() * iterations);
  for (const auto& range : rows.mine().ranges())
    for (std::uint64_t d = range.first; d < range.first + range.count; ++d) {
      const auto& own = device(d).iteration_end;
      if (own.size() != iterations) throw std::logic_error(fmt::format("training results: device {} ran {} of {} iterations", d, own.size(), iterations));
      mine.insert(mine.end(), own.begin(), own.end());
    }
  ends.write_rows(rows.mine(), std::span<const std::uint64_t>(mine));
  ends.set_attribute("units", "ps");
  ends.set_attribute("description", "when the device finished each iteration (row: device, column: iteration)");
}

void write_stages(Group& root, const wl::TrainingRunState& run) {
  const wl::TrainingReport& r = run.report;
  Group g = root.create_group("stages");
  g.set_attribute("description", "every pipeline stage, indexed by stage: its devices' mean time breakdown per "
                                 "iteration and its peak memory per device");
  g.set_attribute("memory_capacity_bytes", r.memory_capacity);
  const std::size_t stages = r.breakdown_by_stage.size();
  write_replicated_column(g, "devices", std::vector<std::uint64_t>(stages, run.layout.devices_per_role()), "devices",
                          "devices running the stage");
  for (const Component& c : kComponents) {
    std::vector<double> values;
    for (const auto& b : r.breakdown_by_stage) values.push_back(b.*c.mean);
    write_replicated_column(g, c.name, values, "ps", fmt::format("mean per device per iteration: {}", c.meaning));
  }
  const auto memory = [&](std::uint64_t models::memory::MemoryBreakdown::*field) {
    std::vector<std::uint64_t> values;
    for (const auto& m : r.memory) values.push_back(m.*field);
    return values;
  };
  using M = models::memory::MemoryBreakdown;
  write_replicated_column(g, "weights_bytes", memory(&M::weights), "bytes", "per device: bf16 weights (ZeRO-3: its shard)");
  write_replicated_column(g, "gradients_bytes", memory(&M::gradients), "bytes", "per device: bf16 gradients");
  write_replicated_column(g, "optimizer_states_bytes", memory(&M::optimizer_states), "bytes",
                          "per device: fp32 master weights and Adam moments (ZeRO >= 1: its shard)");
  write_replicated_column(g, "activations_bytes", memory(&M::activations), "bytes",
                          "per device: activations held at the schedule's peak");
  write_replicated_column(g, "communication_buffers_bytes", memory(&M::communication_buffers), "bytes",
                          "per device: communicator buffers and ring attention's receive buffers");
  std::vector<std::uint64_t> totals;
  for (const auto& m : r.memory) totals.push_back(m.total());
  write_replicated_column(g, "peak_memory_bytes", totals, "bytes", "per device: the sum of the five parts above");
  write_replicated_column(g, "parameters", memory(&M::parameters), "parameters",
                          "the device's parameter shard before ZeRO (dense and expert)");
  write_replicated_column(g, "chunks_in_flight", memory(&M::chunks_in_flight), "activations",
                          "(model chunk, micro-batch) forwards held at the peak");
  write_replicated_column(g, "ring_attention_buffers_bytes", memory(&M::ring_attention_buffers), "bytes",
                          "per device, of communication_buffers_bytes: context parallelism's key/value blocks in flight");
}

void write_collectives(Group& root, const wl::TrainingRunState& run) {
  const auto& list = run.report.collectives;
  std::vector<std::uint8_t> group, kind;
  std::vector<std::uint64_t> calls, bytes, time, longest;
  for (const auto& c : list) {
    group.push_back(static_cast<std::uint8_t>(c.group));
    kind.push_back(static_cast<std::uint8_t>(c.kind));
    calls.push_back(c.tally.calls);
    bytes.push_back(c.tally.bytes);
    time.push_back(c.tally.time);
    longest.push_back(c.tally.longest);
  }
  Group g = root.create_group("collectives");
  g.set_attribute("description", "every kind of collective that ran on every kind of group, over all devices and "
                                 "iterations; each device counts its own part of a call");
  write_replicated_column(g, "group", group, "", "the group it ran over: an index into the attribute names",
                          group_names());
  write_replicated_column(g, "kind", kind, "", "the collective: an index into the attribute names", collective_names());
  write_replicated_column(g, "calls", calls, "calls", "calls, counted once per participating device");
  write_replicated_column(g, "bytes", bytes, "bytes", "bytes of those calls (each device's buffer)");
  write_replicated_column(g, "time_ps", time, "ps", "summed over those calls: start to end at the device");
  write_replicated_column(g, "longest_ps", longest, "ps", "the longest of those calls at one device");
}

void write_training(Group& root, const wl::TrainingRunState& run) {
  const wl::TrainingReport& r = run.report;
  const wl::TrainingLayout& l = run.layout;
  Group g = root.create_group("training");
  g.set_attribute("description", "the training job's figures: throughput, utilization, the mean time breakdown");
  g.set_attribute("layout", r.layout);
  g.set_attribute("devices", r.devices);
  g.set_attribute("tensor_parallel", std::uint64_t{l.tensor()});
  g.set_attribute("pipeline_parallel", std::uint64_t{l.pipeline()});
  g.set_attribute("data_parallel", std::uint64_t{l.data()});
  g.set_attribute("context_parallel", std::uint64_t{l.context()});
  g.set_attribute("expert_parallel", std::uint64_t{l.expert()});
  g.set_attribute("virtual_stages", std::uint64_t{l.virtual_stages()});
  g.set_attribute("micro_batches", l.micro_batches());
  g.set_attribute("iterations", std::uint64_t{r.iterations});
  g.set_attribute("iteration_time_ps", r.iteration_time);
  g.set_attribute("run_time_ps", run.run_end);
  g.set_attribute("tokens_per_iteration", r.tokens_per_iteration);
  g.set_attribute("tokens_per_s", r.tokens_per_second);
  g.set_attribute("mfu", r.mfu);
  g.set_attribute("hfu", r.hfu);
  g.set_attribute("per_device_tflops", r.per_device_tflops);
  g.set_attribute("model_flops", r.model_flops);
  g.set_attribute("hardware_flops", r.hardware_flops);
  g.set_attribute("parameters", r.parameters);
  g.set_attribute("active_parameters", r.active_parameters);
  g.set_attribute("memory_capacity_bytes", r.memory_capacity);
  g.set_attribute("memory_warning", r.memory_warning);
  for (const Component& c : kComponents) g.set_attribute(fmt::format("mean_{}", c.name), r.breakdown.*c.mean);

  std::vector<std::uint64_t> times(r.iteration_times.begin(), r.iteration_times.end()), ends;
  std::uint64_t end = 0;
  for (const auto t : times) ends.push_back(end += t);
  write_replicated_column(g, "iteration_times_ps", times, "ps",
                          "each iteration's time: the last device's end of it minus that of the one before");
  write_replicated_column(g, "iteration_end_ps", ends, "ps", "when the last device finished each iteration");
}

// Energy by component class over the whole run (exact sums over ranks, then joules) and per iteration.
void write_energy(Group& root, const wl::TrainingReport& r) {
  Group g = root.create_group("energy");
  g.set_attribute("description", "IT energy (before PUE) of the whole cluster, by component class (docs/tco.md)");
  g.set_attribute("simulated_time_ps", r.simulated_time);
  g.set_attribute("accelerators_J", r.energy.accelerators.joules());
  g.set_attribute("hosts_J", r.energy.hosts.joules());
  g.set_attribute("nics_J", r.energy.nics.joules());
  g.set_attribute("switches_J", r.energy.switches.joules());
  g.set_attribute("total_J", r.energy.total().joules());
  g.set_attribute("mean_it_power_W", r.mean_it_watts);
  const auto& i = r.energy_per_iteration_joules;
  g.set_attribute("per_iteration_accelerators_J", i.accelerators);
  g.set_attribute("per_iteration_hosts_J", i.hosts);
  g.set_attribute("per_iteration_nics_J", i.nics);
  g.set_attribute("per_iteration_switches_J", i.switches);
  g.set_attribute("per_iteration_total_J", i.total());
}

}  // namespace

void write_training_results(hdf5::File& file, const models::Scenario& scenario, const wl::TrainingRunState& run,
                            const ProgramInfo& program) {
  const NetworkRows net(file.comm(), run.topology, run.rack_rank);
  write_root_attributes(file, scenario, program,
                        engine_run_metadata(file.comm(), "training", run.report.topology, run.report.partition.method,
                                            run.report.setup_seconds, run.engine, run.engine_stats));
  write_cluster_groups(file, net, run.counters, run.run_end, run.report.partition, run.engine, run.engine_stats);
  write_devices(file, net, run);
  write_stages(file, run);
  write_collectives(file, run);
  write_training(file, run);
  write_energy(file, run.report);
  if (run.report.tco) write_tco(file, *run.report.tco);
}

}  // namespace rackscale::io
