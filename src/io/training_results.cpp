#include "io/training_results.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "io/network_results.hpp"
#include "io/results_columns.hpp"
#include "io/statistics_figures.hpp"
#include "io/bom_figures.hpp"
#include "io/goodput_figures.hpp"
#include "io/tco_results.hpp"
#include "io/training_figures.hpp"
#include "io/variability_summary.hpp"

namespace rackscale::io {

namespace acc = models::accelerator;
namespace wl = models::workload;
using hdf5::Group;

namespace {

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
  for (const TimeComponent& c : kTimeComponents)
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

void write_stages(Group& root, const wl::TrainingReport& r) {
  Group g = root.create_group("stages");
  g.set_attribute("description", "every pipeline stage, indexed by stage: its devices' mean time breakdown per "
                                 "iteration and its peak memory per device");
  g.set_attribute("memory_capacity_bytes", r.memory_capacity);
  write_table(g, stage_table(r));
}

void write_collectives(Group& root, const wl::TrainingReport& r) {
  Group g = root.create_group("collectives");
  g.set_attribute("description", "every kind of collective that ran on every kind of group; calls, bytes and times "
                                 "are summed over all devices and iterations, each device counting its own part of "
                                 "a call");
  write_table(g, collective_table(r));
}

void write_training(Group& root, const wl::TrainingReport& r) {
  Group g = root.create_group("training");
  g.set_attribute("description", "the training job's figures: throughput, utilization, the mean time breakdown");
  write_figures(g, training_figures(r));
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
  write_figures(g, energy_figures(r));
}

// The whole run's expected interruptions and checkpoints, with its TCO over the expected time in
// /goodput/tco.
void write_goodput(Group& root, const wl::TrainingGoodput& goodput) {
  Group g = root.create_group("goodput");
  g.set_attribute("description", "the whole run with its interruptions and checkpoints, expected (closed form of "
                                 "the run-level model, docs/goodput.md); tco: the run's cost over the expected time");
  write_figures(g, goodput_figures(goodput));
  Group classes = g.create_group("classes");
  classes.set_attribute("description", "the interruption classes, one row each");
  write_table(classes, goodput_class_table(goodput));
  if (goodput.effective_tco) write_tco(g, *goodput.effective_tco);
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
  write_stages(file, run.report);
  write_collectives(file, run.report);
  write_training(file, run.report);
  write_energy(file, run.report);
  if (run.report.variability) {
    Group g = file.create_group("variability");
    g.set_attribute("description", "variability inside the iteration: the slowdown and the critical path "
                                   "(docs/goodput.md)");
    write_figures(g, variability_figures(*run.report.variability));
  }
  if (run.report.tco) write_tco(file, *run.report.tco);
  if (run.report.goodput) write_goodput(file, *run.report.goodput);
  if (run.report.bom) write_bom(file, *run.report.bom);
  write_statistics(file, run.report.statistics);
}

}  // namespace rackscale::io
