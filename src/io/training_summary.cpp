#include "io/training_summary.hpp"

#include <cmath>

#include <fmt/format.h>

#include "io/energy_summary.hpp"
#include "io/engine_report.hpp"
#include "io/partition_summary.hpp"
#include "io/text_table.hpp"
#include "io/traffic_summary.hpp"

namespace rackscale::io {

namespace wl = models::workload;
using pdes::format_time;

namespace {
std::string ms(double ps) { return fmt::format("{:.3f} ms", ps / 1e9); }
std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : "-"; }
std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f}", static_cast<double>(bytes) / double(1ULL << 30)); }

nlohmann::ordered_json breakdown_json(const wl::MeanBreakdown& b) {
  return {{"forward", b.forward},
          {"backward", b.backward},
          {"recompute", b.recompute},
          {"optimizer", b.optimizer},
          {"other_compute", b.other_compute},
          {"exposed_communication", b.exposed_communication},
          {"pipeline_bubble", b.pipeline_bubble},
          {"idle", b.idle}};
}
}  // namespace

std::string training_summary(const models::Scenario& s, const wl::TrainingReport& r) {
  std::string out;
  const auto& m = s.workload.training.model;
  out += fmt::format("{}: {}\n", s.name, s.description);
  out += fmt::format("model: {} ({:.1f} B parameters, {:.1f} B active), {} layers, hidden {}, sequence {}\n",
                     m.name.empty() ? "transformer" : m.name, static_cast<double>(r.parameters) / 1e9,
                     static_cast<double>(r.active_parameters) / 1e9, m.layers, m.hidden, m.sequence);
  out += fmt::format("layout: {}\n", r.layout);
  out += fmt::format("cluster: {} devices of {}, {} switches, {} racks; {}\n", with_commas(r.devices),
                     s.cluster.accelerator.name, with_commas(r.switches), with_commas(r.racks), r.topology);
  out += fmt::format("partition: {} over {} rank(s), lookahead {}\n", r.partition.method, r.partition.ranks,
                     format_time(r.partition.lookahead));
  out += "\n";

  using A = TextTable::Align;
  TextTable figures({"training", "value"}, {A::left, A::right});
  figures.add_row({"iteration time", format_time(r.iteration_time)});
  figures.add_row({"tokens per iteration", with_commas(r.tokens_per_iteration)});
  figures.add_row({"tokens/s", si_scaled(r.tokens_per_second)});
  figures.add_row({"MFU (model FLOPs)", fmt::format("{:.1f} %", 100 * r.mfu)});
  figures.add_row({"HFU (hardware FLOPs)", fmt::format("{:.1f} %", 100 * r.hfu)});
  figures.add_row({"hardware TFLOP/s per device", fmt::format("{:.1f}", r.per_device_tflops)});
  if (r.iterations > 1) figures.add_row({"iterations simulated", std::to_string(r.iterations)});
  out += figures.render() + "\n";

  TextTable time({"time per device per iteration", "mean", "share"}, {A::left, A::right, A::right});
  const auto& b = r.breakdown;
  const double total = b.total();
  const auto row = [&](const char* name, double value) { time.add_row({name, ms(value), percent(value, total)}); };
  row("compute: forward", b.forward);
  row("compute: backward", b.backward);
  row("compute: recomputation", b.recompute);
  row("compute: optimizer", b.optimizer);
  if (b.other_compute > 0) row("compute: other", b.other_compute);
  row("exposed communication", b.exposed_communication);
  row("pipeline bubble", b.pipeline_bubble);
  row("idle", b.idle);
  out += time.render() + "\n";

  if (r.breakdown_by_stage.size() > 1) {
    TextTable stages({"stage", "compute", "exposed comm", "bubble", "idle", "peak memory GiB"},
                     {A::right, A::right, A::right, A::right, A::right, A::right});
    for (std::size_t st = 0; st < r.breakdown_by_stage.size(); ++st) {
      const auto& sb = r.breakdown_by_stage[st];
      stages.add_row({std::to_string(st), ms(sb.compute()), ms(sb.exposed_communication), ms(sb.pipeline_bubble),
                      ms(sb.idle), st < r.memory.size() ? gib(r.memory[st].total()) : "-"});
    }
    out += stages.render() + "\n";
  }

  if (!r.collectives.empty()) {
    TextTable coll({"collective", "group", "calls", "bytes", "mean time", "longest"},
                   {A::left, A::left, A::right, A::right, A::right, A::right});
    for (const auto& c : r.collectives)
      coll.add_row({wl::collective_name(c.kind), wl::group_name(c.group), with_commas(c.tally.calls),
                    format_bytes(static_cast<double>(c.tally.bytes)),
                    format_time(c.tally.calls ? c.tally.time / c.tally.calls : 0), format_time(c.tally.longest)});
    out += coll.render() + "\n";
  }

  TextTable memory({"memory per device (GiB)", "weights", "grads", "optimizer", "activations", "buffers", "total", "capacity"},
                   {A::left, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  for (const auto& mem : r.memory)
    memory.add_row({fmt::format("stage {}", mem.stage), gib(mem.weights), gib(mem.gradients), gib(mem.optimizer_states),
                    gib(mem.activations), gib(mem.communication_buffers), gib(mem.total()), gib(r.memory_capacity)});
  out += memory.render() + "\n";
  out += energy_summary(r);

  const auto& e = r.engine.total;
  out += fmt::format("engine: setup {:.3f} s; {} events in {:.3f} s ({} events/s), {} windows, {} cross-rank events; "
                     "peak memory {} over {} rank(s)\n",
                     r.setup_seconds, with_commas(e.events_processed), e.wall_seconds, si_scaled(e.events_per_second()),
                     with_commas(e.windows), with_commas(e.remote_sent), format_bytes(static_cast<double>(e.peak_memory_bytes)),
                     r.engine.per_rank.size());
  return out;
}

nlohmann::ordered_json training_json(const models::Scenario& s, const wl::TrainingReport& r) {
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
  for (const auto& b : r.breakdown_by_stage) stages.push_back(breakdown_json(b));
  nlohmann::ordered_json collectives = nlohmann::ordered_json::array();
  for (const auto& c : r.collectives)
    collectives.push_back({{"kind", wl::collective_name(c.kind)},
                           {"group", wl::group_name(c.group)},
                           {"calls", c.tally.calls},
                           {"bytes", c.tally.bytes},
                           {"time_ps", c.tally.time},
                           {"longest_ps", c.tally.longest}});
  nlohmann::ordered_json memory = nlohmann::ordered_json::array();
  for (const auto& mem : r.memory)
    memory.push_back({{"stage", mem.stage},
                      {"weights", mem.weights},
                      {"gradients", mem.gradients},
                      {"optimizer_states", mem.optimizer_states},
                      {"activations", mem.activations},
                      {"communication_buffers", mem.communication_buffers},
                      {"ring_attention_buffers", mem.ring_attention_buffers},
                      {"total", mem.total()}});
  return {{"scenario", s.name},
          {"devices", r.devices},
          {"layout", r.layout},
          {"iterations", r.iterations},
          {"iteration_time_ps", r.iteration_time},
          {"iteration_times_ps", r.iteration_times},
          {"tokens_per_iteration", r.tokens_per_iteration},
          {"tokens_per_second", r.tokens_per_second},
          {"model_flops", r.model_flops},
          {"hardware_flops", r.hardware_flops},
          {"mfu", r.mfu},
          {"hfu", r.hfu},
          {"tflops_per_device", r.per_device_tflops},
          {"parameters", r.parameters},
          {"active_parameters", r.active_parameters},
          {"breakdown_ps", breakdown_json(r.breakdown)},
          {"breakdown_by_stage_ps", stages},
          {"collectives", collectives},
          {"memory_bytes", memory},
          {"memory_capacity_bytes", r.memory_capacity},
          {"energy", energy_json(r)},
          {"setup_s", r.setup_seconds},
          {"partition", partition_json(r.partition)},
          {"engine", engine_json(r.engine)}};
}

}  // namespace rackscale::io
