#include "io/training_figures.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

namespace rackscale::io {

namespace acc = models::accelerator;
namespace wl = models::workload;

const std::array<TimeComponent, 8> kTimeComponents{{
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

namespace {

std::vector<std::string> group_names() {
  std::vector<std::string> out;
  for (int g = 0; g <= static_cast<int>(acc::GroupKind::world); ++g)
    out.emplace_back(wl::group_name(static_cast<acc::GroupKind>(g)));
  return out;
}

std::vector<std::string> collective_names() {
  std::vector<std::string> out;
  for (int k = 0; k <= static_cast<int>(acc::CollectiveKind::all_to_all); ++k)
    out.emplace_back(wl::collective_name(static_cast<acc::CollectiveKind>(k)));
  return out;
}

}  // namespace

Figures training_figures(const wl::TrainingReport& r) {
  const wl::LayoutSizes& l = r.sizes;
  Figures f{{"layout", r.layout},
            {"devices", r.devices},
            {"tensor_parallel", l.tensor},
            {"pipeline_parallel", l.pipeline},
            {"data_parallel", l.data},
            {"context_parallel", l.context},
            {"expert_parallel", l.expert},
            {"virtual_stages", l.virtual_stages},
            {"micro_batches", l.micro_batches},
            {"iterations", std::uint64_t{r.iterations}},
            {"iteration_time_ps", r.iteration_time},
            {"run_time_ps", r.simulated_time},
            {"tokens_per_iteration", r.tokens_per_iteration},
            {"tokens_per_s", r.tokens_per_second},
            {"mfu", r.mfu},
            {"hfu", r.hfu},
            {"mfu_formula", r.mfu_formula},
            {"stack", r.stack},
            {"hardware_flops_per_device_per_s", r.per_device_tflops * 1e12},
            {"model_flops_per_iteration", r.model_flops},
            {"hardware_flops_per_iteration", r.hardware_flops},
            {"parameters", r.parameters},
            {"active_parameters", r.active_parameters},
            {"memory_capacity_bytes", r.memory_capacity},
            {"memory_warning", r.memory_warning}};
  for (const TimeComponent& c : kTimeComponents) f.push_back({fmt::format("mean_{}", c.name), r.breakdown.*c.mean});
  return f;
}

Table stage_table(const wl::TrainingReport& r) {
  const std::size_t stages = r.breakdown_by_stage.size();
  Table t{{"devices", "devices", "devices running the stage", std::vector<std::uint64_t>(stages, r.sizes.devices_per_stage)}};
  for (const TimeComponent& c : kTimeComponents) {
    std::vector<double> values;
    for (const auto& b : r.breakdown_by_stage) values.push_back(b.*c.mean);
    t.push_back({c.name, "ps", fmt::format("mean per device per iteration: {}", c.meaning), std::move(values)});
  }
  using M = models::workload::MemoryBreakdown;
  const auto memory = [&](std::uint64_t M::*field) {
    std::vector<std::uint64_t> values;
    for (const auto& m : r.memory) values.push_back(m.*field);
    return values;
  };
  std::vector<std::uint64_t> totals;
  for (const auto& m : r.memory) totals.push_back(m.total());
  t.push_back({"weights_bytes", "bytes", "per device: bf16 weights (ZeRO-3: its shard)", memory(&M::weights)});
  t.push_back({"gradients_bytes", "bytes", "per device: bf16 gradients", memory(&M::gradients)});
  t.push_back({"optimizer_states_bytes", "bytes", "per device: fp32 master weights and Adam moments (ZeRO >= 1: its shard)",
               memory(&M::optimizer_states)});
  t.push_back({"activations_bytes", "bytes", "per device: activations held at the schedule's peak", memory(&M::activations)});
  t.push_back({"communication_buffers_bytes", "bytes", "per device: communicator buffers and ring attention's receive buffers",
               memory(&M::communication_buffers)});
  t.push_back({"ring_attention_buffers_bytes", "bytes",
               "per device, of communication_buffers_bytes: context parallelism's key/value blocks in flight",
               memory(&M::ring_attention_buffers)});
  t.push_back({"peak_memory_bytes", "bytes", "per device: weights, gradients, optimizer states, activations and "
                                             "communication buffers",
               totals});
  t.push_back({"parameters", "parameters", "the device's parameter shard before ZeRO (dense and expert)",
               memory(&M::parameters)});
  t.push_back({"chunks_in_flight", "chunks", "(model chunk, micro-batch) forwards held at the peak",
               memory(&M::chunks_in_flight)});
  return t;
}

Table collective_table(const wl::TrainingReport& r) {
  Enumeration group{{}, group_names()}, kind{{}, collective_names()};
  std::vector<std::uint64_t> calls, bytes, time, longest;
  for (const auto& c : r.collectives) {
    group.values.push_back(static_cast<std::uint8_t>(c.group));
    kind.values.push_back(static_cast<std::uint8_t>(c.kind));
    calls.push_back(c.tally.calls);
    bytes.push_back(c.tally.bytes);
    time.push_back(c.tally.time);
    longest.push_back(c.tally.longest);
  }
  return {{"group", "", "the group it ran over", std::move(group)},
          {"kind", "", "the collective", std::move(kind)},
          {"calls", "calls", "calls summed over devices and iterations: a call counts once per device taking part",
           std::move(calls)},
          {"bytes", "bytes", "bytes of those calls summed over devices and iterations (each device's buffer)",
           std::move(bytes)},
          {"time_ps", "ps", "start to end at the device, summed over those device-calls", std::move(time)},
          {"longest_ps", "ps", "the longest of those calls at one device", std::move(longest)}};
}

Figures energy_figures(const wl::TrainingReport& r) {
  const auto& x = r.energy;
  const auto& i = r.energy_per_iteration_joules;
  return {{"simulated_time_ps", r.simulated_time},
          {"accelerators_J", x.accelerators.joules()},
          {"hosts_J", x.hosts.joules()},
          {"nics_J", x.nics.joules()},
          {"switches_J", x.switches.joules()},
          {"optics_J", x.optics.joules()},
          {"total_J", x.total().joules()},
          {"mean_it_power_W", r.mean_it_watts},
          {"per_iteration_accelerators_J", i.accelerators},
          {"per_iteration_hosts_J", i.hosts},
          {"per_iteration_nics_J", i.nics},
          {"per_iteration_switches_J", i.switches},
          {"per_iteration_optics_J", i.optics},
          {"per_iteration_total_J", i.total()}};
}

}  // namespace rackscale::io
