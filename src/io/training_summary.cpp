#include "io/training_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/energy_summary.hpp"
#include "io/engine_report.hpp"
#include "io/goodput_figures.hpp"
#include "io/partition_summary.hpp"
#include "io/scenario_header.hpp"
#include "io/statistics_figures.hpp"
#include "io/tco_figures.hpp"
#include "io/text_table.hpp"
#include "io/training_figures.hpp"
#include "io/variability_summary.hpp"

namespace rackscale::io {

namespace wl = models::workload;
using A = TextTable::Align;

namespace {

std::string gib(std::uint64_t bytes) { return significant(static_cast<double>(bytes) / double(1ULL << 30)); }
std::string share(double part, double whole) { return whole > 0 ? format_percent(part / whole) : "-"; }
// Mean times are doubles of picoseconds.
std::string time_in(double ps, Unit unit) { return in_unit(ps * 1e-12, unit); }

// "TP 2 x PP 2 x DP 16", with CP and EP when there are any.
std::string parallel_sizes(const wl::LayoutSizes& l) {
  std::string out = fmt::format("TP {} x PP {} x DP {}", l.tensor, l.pipeline, l.data);
  if (l.context > 1) out += fmt::format(" x CP {}", l.context);
  if (l.expert > 1) out += fmt::format(", EP {}", l.expert);
  return out;
}

std::string header(const models::Scenario& s, const wl::TrainingReport& r) {
  const auto& m = s.workload.training.model;
  const std::string model = m.name.empty() ? "a transformer" : m.name;
  std::string out = scenario_header(s, fmt::format("training {} on {} {}, {}", model, with_commas(r.devices),
                                                   s.cluster.accelerator.name, parallel_sizes(r.sizes)));
  out += fmt::format("model: {}, {} parameters ({} active), {} layers, hidden {}, sequence {}\n", model,
                     with_prefix(static_cast<double>(r.parameters), Prefixes::counts, ""),
                     with_prefix(static_cast<double>(r.active_parameters), Prefixes::counts, ""), m.layers, m.hidden,
                     m.sequence);
  out += fmt::format("layout: {}\n", r.layout);
  out += fmt::format("cluster: {} devices of {}, {} switches, {} racks; {}\n", with_commas(r.devices),
                     s.cluster.accelerator.name, with_commas(r.switches), with_commas(r.racks), r.topology);
  out += fmt::format("partition: {} over {} rank(s), lookahead {}\n\n", r.partition.method, r.partition.ranks,
                     format_picoseconds(r.partition.lookahead));
  return out;
}

std::string figures_table(const wl::TrainingReport& r) {
  TextTable figures({"training", "value"}, {A::left, A::right});
  figures.add_row({"iteration time", format_picoseconds(r.iteration_time)});
  figures.add_row({"tokens per iteration", with_commas(r.tokens_per_iteration)});
  figures.add_row({"tokens/s", with_prefix(r.tokens_per_second, Prefixes::counts, "")});
  figures.add_row({fmt::format("MFU (model FLOPs, {} per token)", r.mfu_formula), format_percent(r.mfu)});
  figures.add_row({"HFU (hardware FLOPs)", format_percent(r.hfu)});
  figures.add_row({"hardware FLOP/s per device", with_prefix(r.per_device_tflops * 1e12, Prefixes::si, "FLOP/s")});
  if (r.iterations > 1) figures.add_row({"iterations simulated", with_commas(r.iterations)});
  return figures.render();
}

std::string breakdown_table(const wl::TrainingReport& r) {
  const auto& b = r.breakdown;
  const Unit unit = time_unit(1e-12 * std::max({b.forward, b.backward, b.recompute, b.optimizer, b.other_compute,
                                                b.exposed_communication, b.pipeline_bubble, b.idle}));
  TextTable time({"time per device per iteration", "mean", "share"}, {A::left, A::right, A::right});
  const double total = b.total();
  const auto row = [&](const char* name, double value) { time.add_row({name, time_in(value, unit), share(value, total)}); };
  row("compute: forward", b.forward);
  row("compute: backward", b.backward);
  row("compute: recomputation", b.recompute);
  row("compute: optimizer", b.optimizer);
  if (b.other_compute > 0) row("compute: other", b.other_compute);
  row("exposed communication", b.exposed_communication);
  row("pipeline bubble", b.pipeline_bubble);
  row("idle", b.idle);
  return time.render();
}

std::string stage_table_text(const wl::TrainingReport& r) {
  double largest = 0;
  for (const auto& sb : r.breakdown_by_stage)
    largest = std::max({largest, sb.compute(), sb.exposed_communication, sb.pipeline_bubble, sb.idle});
  const Unit unit = time_unit(largest * 1e-12);
  TextTable stages({"stage", "compute", "exposed communication", "pipeline bubble", "idle", "peak memory (GiB)"},
                   {A::right, A::right, A::right, A::right, A::right, A::right});
  for (std::size_t st = 0; st < r.breakdown_by_stage.size(); ++st) {
    const auto& sb = r.breakdown_by_stage[st];
    stages.add_row({std::to_string(st), time_in(sb.compute(), unit), time_in(sb.exposed_communication, unit),
                    time_in(sb.pipeline_bubble, unit), time_in(sb.idle, unit),
                    st < r.memory.size() ? gib(r.memory[st].total()) : "-"});
  }
  return stages.render();
}

std::string collectives_table(const wl::TrainingReport& r) {
  std::uint64_t longest = 0;
  for (const auto& c : r.collectives) longest = std::max(longest, c.tally.longest);
  const Unit unit = time_unit(pdes::to_seconds(longest));
  TextTable coll({"collective", "group", "calls", "bytes", "mean time", "longest"},
                 {A::left, A::left, A::right, A::right, A::right, A::right});
  for (const auto& c : r.collectives)
    coll.add_row({wl::collective_name(c.kind), wl::group_name(c.group), with_commas(c.tally.calls),
                  format_bytes(static_cast<double>(c.tally.bytes)),
                  time_in(c.tally.calls ? static_cast<double>(c.tally.time) / static_cast<double>(c.tally.calls) : 0, unit),
                  time_in(static_cast<double>(c.tally.longest), unit)});
  return fmt::format("Calls and bytes are summed over the {} devices and {} iteration{}: a call counts once for "
                     "every device taking part, with that device's buffer. Times are per device-call.\n",
                     with_commas(r.devices), r.iterations, r.iterations == 1 ? "" : "s") +
         coll.render();
}

std::string memory_table(const wl::TrainingReport& r) {
  TextTable memory({"memory per device (GiB)", "weights", "gradients", "optimizer states", "activations",
                    "communication buffers", "peak", "capacity"},
                   {A::left, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  for (const auto& mem : r.memory)
    memory.add_row({fmt::format("stage {}", mem.stage), gib(mem.weights), gib(mem.gradients), gib(mem.optimizer_states),
                    gib(mem.activations), gib(mem.communication_buffers), gib(mem.total()), gib(r.memory_capacity)});
  return memory.render();
}

}  // namespace

std::string training_summary(const models::Scenario& s, const wl::TrainingReport& r) {
  std::string out = header(s, r);
  out += figures_table(r) + "\n";
  out += breakdown_table(r) + "\n";
  if (r.breakdown_by_stage.size() > 1) out += stage_table_text(r) + "\n";
  if (!r.collectives.empty()) out += collectives_table(r) + "\n";
  out += memory_table(r) + "\n";
  if (r.variability) out += variability_summary(*r.variability, r.iteration_time) + "\n";
  out += energy_summary(r);
  if (r.goodput && r.tco) out += goodput_text(*r.goodput, *r.tco);
  out += engine_line(r.engine, r.setup_seconds);
  return out;
}

nlohmann::ordered_json training_json(const models::Scenario& s, const wl::TrainingReport& r) {
  nlohmann::ordered_json j{{"scenario", s.name}};
  add_figures(j, training_figures(r));
  j["iteration_times_ps"] = r.iteration_times;
  j["stages"] = table_json(stage_table(r));
  j["collectives"] = table_json(collective_table(r));
  j["energy"] = figures_json(energy_figures(r));
  j["tco"] = r.tco ? tco_json(*r.tco) : nlohmann::ordered_json(nullptr);
  if (r.variability) j["variability"] = figures_json(variability_figures(*r.variability));
  j["goodput"] = r.goodput ? goodput_json(*r.goodput) : nlohmann::ordered_json(nullptr);
  j["setup_s"] = r.setup_seconds;
  j["partition"] = partition_json(r.partition);
  j["engine"] = engine_json(r.engine);
  j["statistics"] = statistics_json(r.statistics);
  return j;
}

}  // namespace rackscale::io
