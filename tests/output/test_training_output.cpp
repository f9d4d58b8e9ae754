// `rackscale run --output` for training runs, through the app layer under mpirun with 1, 2 and 4 ranks
// (the README's default example cut down to stay quick: 32 H100s in 4 racks, TP 2 x PP 2 x DP 8, four
// layers, two micro-batches per replica, two iterations). The file holds what the run's report
// says and what follows from it independently: every device's time components add up to the run's
// end, the per-stage means are the devices' rows averaged, the iteration ends are the devices' latest,
// coordinates and memory are the layout's and the memory model's, MFU is its closed form; the --json
// object names every figure as the file does; and its results datasets are byte for byte those of a
// sequential run, for every partition method.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/results_output.hpp"
#include "app/training_output.hpp"
#include "app/training_run.hpp"
#include "app/version.hpp"
#include "h5_reader.hpp"
#include "io/bom_figures.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/results_metadata.hpp"
#include "io/training_summary.hpp"
#include "models/workload/memory_model.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/training_plan.hpp"
#include "scratch_dir.hpp"

namespace {
namespace app = rackscale::app;
namespace wl = rackscale::models::workload;
namespace fs = std::filesystem;
using rackscale::test::H5Reader;
using rackscale::test::ScratchDir;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::Scenario scenario() {
  return rackscale::io::load_scenario(std::string(RACKSCALE_TRAINING_CONFIGS) + "/laptop-64.yaml",
                                      {"cluster.nodes=4", "cluster.nodes_per_rack=1", "workload.model.layers=4",
                                       "workload.parallel.global_batch=16"});
}

wl::TrainingReport run(const boost::mpi::communicator& comm, const rackscale::models::Scenario& s,
                       const std::string& path, const std::string& method = "block") {
  app::RunOptions options;
  options.partition = method;
  const app::OutputOptions output{path, false};
  EXPECT_EQ(app::check_output(comm, output), "");
  return app::run_training(comm, s, options, app::training_output(comm, s, output));
}

const std::array<std::string, 8> kComponents{"forward_ps",       "backward_ps",
                                             "recompute_ps",     "optimizer_ps",
                                             "other_compute_ps", "exposed_communication_ps",
                                             "pipeline_bubble_ps", "idle_ps"};

}  // namespace

namespace {
// Expects the attributes of `group` (but its description) and the members of `object` (but those named
// in `json_only`) to be the same figures: the same names, the same values.
void expect_same_figures(const H5Reader& in, const std::string& group, const nlohmann::ordered_json& object,
                         const std::set<std::string>& json_only) {
  SCOPED_TRACE(group);
  std::set<std::string> in_file, in_json;
  for (const auto& name : in.attribute_names(group))
    if (name != "description") in_file.insert(name);
  for (const auto& [name, value] : object.items())
    if (!json_only.contains(name)) in_json.insert(name);
  EXPECT_EQ(in_file, in_json);
  for (const auto& name : in_file) {
    if (!object.contains(name)) continue;
    const auto& value = object[name];
    if (value.is_null()) {
      EXPECT_TRUE(std::isnan(in.attribute<double>(group, name))) << name;
    } else if (value.is_number_unsigned()) {
      EXPECT_EQ(in.attribute<std::uint64_t>(group, name), value.get<std::uint64_t>()) << name;
    } else if (value.is_number()) {
      EXPECT_EQ(in.attribute<double>(group, name), value.get<double>()) << name;
    } else if (value.is_string()) {
      EXPECT_EQ(in.string_attribute(group, name), value.get<std::string>()) << name;
    } else {
      EXPECT_EQ(in.string_attributes(group, name), value.get<std::vector<std::string>>()) << name;
    }
  }
}

// Expects the datasets of `group` to be the columns of the JSON table `records`.
void expect_same_columns(const H5Reader& in, const std::string& group, const nlohmann::ordered_json& records) {
  SCOPED_TRACE(group);
  ASSERT_FALSE(records.empty());
  std::set<std::string> in_file, in_json;
  for (const auto& dataset : in.datasets())
    if (dataset.starts_with(group + "/") && dataset.find('/', group.size() + 1) == std::string::npos)
      in_file.insert(dataset.substr(group.size() + 1));
  for (const auto& [name, value] : records.front().items()) in_json.insert(name);
  EXPECT_EQ(in_file, in_json);
}
}  // namespace

TEST(TrainingOutput, TheFileHoldsTheRunsFigures) {
  const auto comm = world();
  const ScratchDir dir(comm, "training-figures");
  const auto s = scenario();
  const std::string path = dir / "laptop.h5";
  const auto report = run(comm, s, path);
  ASSERT_TRUE(fs::exists(path));
  if (comm.rank() != 0) return;
  const H5Reader in(path);

  // Metadata: the common root attributes, for a training workload.
  EXPECT_EQ(in.string_attribute("/", "format"), "rackscale results");
  EXPECT_EQ(in.attribute<std::int64_t>("/", "format_version"), rackscale::io::kResultsFormatVersion);
  EXPECT_EQ(in.string_attribute("/", "workload"), "training");
  EXPECT_EQ(in.string_attribute("/", "program_version"), app::kVersion);
  EXPECT_EQ(in.string_attribute("/", "scenario"), "laptop-64");
  EXPECT_EQ(in.string_attribute("/", "config"), s.resolved_yaml);
  EXPECT_EQ(in.string_attribute("/", "network_fidelity"), "chunk");
  EXPECT_EQ(in.attribute<std::int64_t>("/", "ranks"), comm.size());
  EXPECT_GT(in.attribute<std::uint64_t>("/", "events"), 0u);
  for (const std::string name : {"created", "wall_s", "setup_s", "events_per_s", "windows", "lookahead_ps",
                                 "final_time_ps", "topology", "description", "config_file", "partition_method",
                                 "git_revision", "seed"})
    EXPECT_TRUE(in.has_attribute("/", name)) << name;

  // The summary scalars: the report's, and the closed forms they follow.
  const auto& spec = s.workload.training;
  const std::uint64_t tokens = spec.parallel.global_batch * spec.model.sequence;
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "tokens_per_iteration"), tokens);
  const auto iteration = in.attribute<std::uint64_t>("/training", "iteration_time_ps");
  EXPECT_EQ(iteration, report.iteration_time);
  const double seconds = static_cast<double>(iteration) * 1e-12;
  const double peak = 32 * s.cluster.accelerator.peak_bf16_flops;
  const double model_flops = in.attribute<double>("/training", "model_flops_per_iteration");
  const double hardware_flops = in.attribute<double>("/training", "hardware_flops_per_iteration");
  EXPECT_EQ(model_flops, report.model_flops);
  EXPECT_EQ(hardware_flops, report.hardware_flops);
  EXPECT_NEAR(in.attribute<double>("/training", "tokens_per_s"), static_cast<double>(tokens) / seconds, 1e-9 * 1e6);
  EXPECT_NEAR(in.attribute<double>("/training", "mfu"), model_flops / (seconds * peak), 1e-12);
  EXPECT_NEAR(in.attribute<double>("/training", "hfu"), hardware_flops / (seconds * peak), 1e-12);
  EXPECT_NEAR(in.attribute<double>("/training", "hardware_flops_per_device_per_s"), hardware_flops / seconds / 32,
              1e-9 * hardware_flops / seconds / 32);
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "parameters"), report.parameters);
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "pipeline_parallel"), 2u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "tensor_parallel"), 2u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "data_parallel"), 8u);

  // Iterations: the times add up to their ends; the last end is the run's and the links' span.
  const auto times = in.read<std::uint64_t>("/training/iteration_times_ps");
  const auto ends = in.read<std::uint64_t>("/training/iteration_end_ps");
  ASSERT_EQ(times.size(), 2u);
  EXPECT_EQ(std::vector<std::uint64_t>(report.iteration_times.begin(), report.iteration_times.end()), times);
  EXPECT_EQ(ends[0], times[0]);
  EXPECT_EQ(ends[1], times[0] + times[1]);
  const std::uint64_t run_end = ends.back();
  EXPECT_EQ(in.attribute<std::uint64_t>("/training", "run_time_ps"), run_end);
  EXPECT_EQ(in.attribute<std::uint64_t>("/links", "makespan_ps"), run_end);

  // Devices: place in the job from the layout, memory from the memory model.
  const auto plan = wl::build_training_plan(spec, s.cluster);
  const auto memory = rackscale::models::workload::job_memory(plan.layout);
  const std::size_t devices = 32;
  const auto stage = in.read<std::uint32_t>("/devices/stage");
  const auto tensor = in.read<std::uint32_t>("/devices/tensor_rank");
  const auto data = in.read<std::uint32_t>("/devices/data_rank");
  const auto peak_memory = in.read<std::uint64_t>("/devices/peak_memory_bytes");
  ASSERT_EQ(stage.size(), devices);
  for (std::uint32_t d = 0; d < devices; ++d) {
    const auto c = plan.layout.coordinates(d);
    EXPECT_EQ(stage[d], c.pipeline) << d;
    EXPECT_EQ(tensor[d], c.tensor) << d;
    EXPECT_EQ(data[d], c.data) << d;
    EXPECT_EQ(peak_memory[d], memory[c.pipeline].total()) << d;
  }
  const auto stage_memory = in.read<std::uint64_t>("/stages/peak_memory_bytes");
  ASSERT_EQ(stage_memory.size(), 2u);
  EXPECT_EQ(stage_memory[1], memory[1].total());
  EXPECT_EQ(in.read<std::uint64_t>("/stages/activations_bytes")[0], memory[0].activations);

  // Time: every device's components add up to the run's end; the iteration ends' maxima are the run's.
  std::vector<std::vector<std::uint64_t>> parts;
  for (const auto& name : kComponents) parts.push_back(in.read<std::uint64_t>("/devices/" + name));
  const auto device_ends = in.read<std::uint64_t>("/devices/iteration_end_ps");
  ASSERT_EQ(in.shape("/devices/iteration_end_ps"), (std::vector<hsize_t>{devices, 2}));
  std::array<std::uint64_t, 2> latest{};
  for (std::size_t d = 0; d < devices; ++d) {
    std::uint64_t sum = 0;
    for (const auto& p : parts) sum += p[d];
    EXPECT_EQ(sum, run_end) << "device " << d;
    for (std::size_t i = 0; i < 2; ++i) latest[i] = std::max(latest[i], device_ends[d * 2 + i]);
    EXPECT_GT(parts[0][d], 0u) << "forward time of device " << d;
  }
  EXPECT_EQ(latest[0], ends[0]);
  EXPECT_EQ(latest[1], ends[1]);
  // The per-stage means are the devices' rows averaged (16 devices per stage, 2 iterations).
  for (std::size_t k = 0; k < kComponents.size(); ++k) {
    const auto means = in.read<double>("/stages/" + kComponents[k]);
    for (std::uint32_t st = 0; st < 2; ++st) {
      std::uint64_t sum = 0;
      for (std::size_t d = 0; d < devices; ++d)
        if (stage[d] == st) sum += parts[k][d];
      EXPECT_DOUBLE_EQ(means[st], static_cast<double>(sum) / 32.0) << kComponents[k] << " stage " << st;
    }
  }
  EXPECT_GT(in.read<double>("/stages/pipeline_bubble_ps")[0], 0.0);
  EXPECT_DOUBLE_EQ(in.attribute<double>("/training", "mean_forward_ps"), report.breakdown.forward);

  // Collectives: the report's table, with names.
  const auto calls = in.read<std::uint64_t>("/collectives/calls");
  ASSERT_EQ(calls.size(), report.collectives.size());
  const auto group = in.read<std::uint8_t>("/collectives/group");
  const auto group_names = in.string_attributes("/collectives/group", "names");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i], report.collectives[i].tally.calls);
    EXPECT_EQ(group_names.at(group[i]), wl::group_name(report.collectives[i].group));
  }
  EXPECT_EQ(in.read<std::uint64_t>("/collectives/longest_ps").front(), report.collectives.front().tally.longest);

  // Links: utilization is busy time over the run; bytes went over NVLink and the NICs.
  const auto busy = in.read<std::uint64_t>("/links/busy_ps");
  const auto utilization = in.read<double>("/links/utilization");
  for (std::size_t p = 0; p < busy.size(); ++p)
    EXPECT_EQ(utilization[p], static_cast<double>(busy[p]) / static_cast<double>(run_end));
  const auto bytes = in.read<std::uint64_t>("/links/bytes");
  const auto classes = in.read<std::uint8_t>("/links/link_class");
  std::array<std::uint64_t, 2> by_class{};  // scale_up, nic
  for (std::size_t p = 0; p < bytes.size(); ++p)
    if (classes[p] < 2) by_class[classes[p]] += bytes[p];
  EXPECT_GT(by_class[0], 0u);
  EXPECT_GT(by_class[1], 0u);
  // Pipeline transfers: every device sends activations or gradients to its neighbour stage.
  std::uint64_t pipeline = 0;
  for (const auto b : in.read<std::uint64_t>("/devices/pipeline_bytes_sent")) pipeline += b;
  EXPECT_GT(pipeline, 0u);

  // Energy: each accelerator draws idle power all run and TDP while it computes (forward, backward,
  // recompute, optimizer, other), worked out here from the preset's watts and the file's times; the
  // devices add up to /energy's accelerator total, and the classes to its total.
  const auto energy = in.read<double>("/devices/energy_J");
  ASSERT_EQ(energy.size(), devices);
  const double idle_w = s.cluster.accelerator.idle_watts, tdp_w = s.cluster.accelerator.tdp_watts;
  ASSERT_GT(tdp_w, idle_w);
  double accelerators = 0;
  for (std::size_t d = 0; d < devices; ++d) {
    std::uint64_t compute = 0;
    for (std::size_t k = 0; k < 5; ++k) compute += parts[k][d];
    const double expected = idle_w * static_cast<double>(run_end) * 1e-12 + (tdp_w - idle_w) * static_cast<double>(compute) * 1e-12;
    EXPECT_NEAR(energy[d], expected, 1e-9 * expected) << "device " << d;
    accelerators += energy[d];
  }
  EXPECT_NEAR(in.attribute<double>("/energy", "accelerators_J"), accelerators, 1e-9 * accelerators);
  double classes_sum = 0;
  for (const char* c : {"accelerators_J", "hosts_J", "nics_J", "switches_J", "optics_J"}) {
    EXPECT_GT(in.attribute<double>("/energy", c), 0.0) << c;
    classes_sum += in.attribute<double>("/energy", c);
  }
  EXPECT_NEAR(in.attribute<double>("/energy", "total_J"), classes_sum, 1e-9 * classes_sum);
  EXPECT_EQ(in.attribute<std::uint64_t>("/energy", "simulated_time_ps"), run_end);
  ASSERT_TRUE(report.tco.has_value());
  EXPECT_DOUBLE_EQ(in.attribute<double>("/tco", "capex_usd"), report.tco->capex_usd);
  // Carbon the model does not count is NaN, not 0: the facility's and maintenance's. The network's
  // chips (NICs, switch ASICs, transceivers) are counted from their presets.
  const auto items = in.strings("/tco/breakdown/item");
  const auto carbon = in.read<double>("/tco/breakdown/carbon_kgco2e");
  ASSERT_EQ(items.size(), carbon.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool counted = items[i] != "facility" && items[i] != "maintenance";
    EXPECT_EQ(std::isnan(carbon[i]), !counted) << items[i];
  }

  // The --json object gives every figure the name the file gives it.
  const auto json = rackscale::io::training_json(s, report);
  expect_same_figures(in, "/training", json,
                      {"scenario", "iteration_times_ps", "stages", "collectives", "energy", "tco", "goodput", "setup_s",
                       "partition", "engine", "statistics"});
  expect_same_figures(in, "/energy", json["energy"], {});
  // /statistics: every figure the workload declared, a dataset each, as the JSON's statistics object has it.
  ASSERT_FALSE(json["statistics"].empty());
  for (const auto& [name, value] : json["statistics"].items()) {
    const auto rows = in.read<std::uint64_t>("/statistics/" + name);
    if (value.is_array()) {
      EXPECT_EQ(rows, value.get<std::vector<std::uint64_t>>()) << name;
    } else {
      EXPECT_EQ(rows, std::vector<std::uint64_t>{value.get<std::uint64_t>()}) << name;
    }
  }
  const auto& end_figure = json["statistics"]["iteration_end_ps"];  // one row per iteration; a number for one
  EXPECT_EQ((end_figure.is_array() ? end_figure.back() : end_figure).get<std::uint64_t>(), report.simulated_time);
  // /bom: the network's bill of materials, the figures bom_json gives (validate --bom --json).
  ASSERT_TRUE(report.bom.has_value());
  expect_same_figures(in, "/bom", rackscale::io::bom_json(*report.bom), {"items"});
  EXPECT_EQ(in.attribute<std::uint64_t>("/bom", "accelerators"), 32u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/bom", "nics"), report.bom->nics->count);
  EXPECT_EQ(in.strings("/bom/items/item").front(), "NICs");
  expect_same_figures(in, "/tco", json["tco"], {"per_iteration", "per_million_tokens", "whole_run", "breakdown"});
  for (const std::string scope : {"per_iteration", "per_million_tokens", "whole_run"})
    expect_same_figures(in, "/tco/" + scope, json["tco"][scope], {});
  expect_same_columns(in, "/stages", json["stages"]);
  expect_same_columns(in, "/collectives", json["collectives"]);
  expect_same_columns(in, "/tco/breakdown", json["tco"]["breakdown"]);
  // /goodput: the whole run's expected interruptions and checkpoints (docs/goodput.md), as the JSON has it,
  // with the TCO over the expected time in /goodput/tco.
  ASSERT_TRUE(report.goodput.has_value());
  expect_same_figures(in, "/goodput", json["goodput"], {"classes", "effective_tco"});
  expect_same_columns(in, "/goodput/classes", json["goodput"]["classes"]);
  expect_same_figures(in, "/goodput/tco/whole_run", json["goodput"]["effective_tco"]["whole_run"], {});
  EXPECT_GT(in.attribute<double>("/goodput/tco/whole_run", "cost_usd"), in.attribute<double>("/tco/whole_run", "cost_usd"));
  EXPECT_EQ(json["iteration_times_ps"].get<std::vector<std::uint64_t>>(), in.read<std::uint64_t>("/training/iteration_times_ps"));
}

TEST(TrainingOutput, ResultsAreIdenticalToASequentialRunForEveryPartitionMethod) {
  const auto comm = world();
  const ScratchDir dir(comm, "training-identical");
  const auto s = scenario();
  const std::string reference = dir / "sequential.h5";
  if (comm.rank() == 0) (void)run(self(), s, reference);
  comm.barrier();
  for (const std::string method : {"block", "round_robin", "metis"}) {
    SCOPED_TRACE(method);
    const std::string path = dir / (method + ".h5");
    (void)run(comm, s, path, method);
    if (comm.rank() != 0) continue;
    rackscale::test::expect_same_results(H5Reader(reference), H5Reader(path), 60, {"/training", "/stages", "/links"});
  }
}

TEST(TrainingOutput, AnExistingFileIsRefusedBeforeSimulatingAndAFailedWriteLeavesNone) {
  const auto comm = world();
  const ScratchDir dir(comm, "training-refused");
  const std::string path = dir / "out.h5";
  if (comm.rank() == 0) std::ofstream(path) << "old";
  comm.barrier();
  EXPECT_EQ(app::check_output(comm, {path, false}), "--output " + path + ": the file exists (--force replaces it)");
  EXPECT_EQ(app::check_output(comm, {path, true}), "");
  EXPECT_EQ(app::check_output(comm, {"", false}), "");

  // Something takes the name while the run goes on: a directory, which a file cannot replace.
  const std::string taken = dir / "taken.h5";
  if (comm.rank() == 0) fs::create_directory(taken);
  comm.barrier();
  const auto s = scenario();
  try {
    (void)app::run_training(comm, s, {}, app::training_output(comm, s, {taken, true}));
    ADD_FAILURE() << "the run succeeded";
  } catch (const app::ResultsFileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the results file " + taken), std::string::npos) << e.what();
  }
  comm.barrier();
  EXPECT_TRUE(fs::is_empty(taken));
  if (comm.rank() == 0) {
    std::string kept;
    std::getline(std::ifstream(path), kept);
    EXPECT_EQ(kept, "old");
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 2) << "no partial file left";
}
