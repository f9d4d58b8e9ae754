// Results files of collective sweeps and the /tco group, read back with the plain HDF5 API.
// - A sweep's file (an all-reduce over two HGX nodes, 1 KiB to 1 MiB) holds, per size, nccl-tests' size
//   and count (floats: size / 4), the report's time and algorithm, algbw = size / time and busbw = algbw
//   x 2 (n - 1) / n (nccl-tests), their mean as the average bus bandwidth, and the sweep's settings; and
//   is the same on any rank count as on one.
// - write_tco stores a hand-filled TcoReport: every figure under its documented name, NaN for a method
//   without a figure, the breakdown table and the notes (none, too).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/collective_run.hpp"
#include "app/results_output.hpp"
#include "h5_reader.hpp"
#include "io/collective_results.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/tco_results.hpp"
#include "scratch_dir.hpp"

namespace {
namespace app = rackscale::app;
namespace io = rackscale::io;
namespace tco = rackscale::models::tco;
namespace fs = std::filesystem;
using rackscale::test::H5Reader;
using rackscale::test::ScratchDir;

boost::mpi::communicator world() { return {}; }
boost::mpi::communicator self() { return {MPI_COMM_SELF, boost::mpi::comm_attach}; }

rackscale::models::Scenario sweep() {
  return io::load_scenario(std::string(RACKSCALE_EXAMPLE_CONFIGS) + "/nccl-allreduce-2node-h100.yaml",
                           {"workload.min_bytes=1KiB", "workload.max_bytes=1MiB"});
}

rackscale::models::collectives::CollectiveReport run_sweep(const boost::mpi::communicator& comm,
                                                           const rackscale::models::Scenario& s,
                                                           const std::string& path) {
  const auto report = app::run_collective(comm, s, {});
  app::write_results_file(comm, {path, false}, [&](rackscale::io::hdf5::File& file) {
    io::write_collective_results(file, s, report, {"test", "none"});
  });
  return report;
}
}  // namespace

TEST(CollectiveOutput, TheFileHoldsTheSweepAndIsTheSameOnAnyRankCount) {
  const auto comm = world();
  const ScratchDir dir(comm, "collective-sweep");
  const auto s = sweep();
  const std::string reference = dir / "sequential.h5";
  if (comm.rank() == 0) (void)run_sweep(self(), s, reference);
  comm.barrier();
  const std::string path = dir / "sweep.h5";
  const auto report = run_sweep(comm, s, path);
  if (comm.rank() != 0) return;
  const H5Reader in(path);
  EXPECT_EQ(in.string_attribute("/", "workload"), "collective");
  EXPECT_EQ(in.string_attribute("/", "format"), "rackscale results");
  EXPECT_EQ(in.string_attribute("/", "program_version"), "test");
  EXPECT_EQ(in.attribute<std::int64_t>("/", "ranks"), comm.size());
  std::uint64_t events = 0;
  for (const auto& p : report.results) events += p.events;
  EXPECT_EQ(in.attribute<std::uint64_t>("/", "events"), events);

  const std::uint32_t n = report.devices;
  EXPECT_EQ(n, 16u);
  EXPECT_EQ(in.string_attribute("/collective", "op"), "all_reduce");
  EXPECT_EQ(in.string_attribute("/collective", "nccl_tests_binary"), "all_reduce_perf");
  EXPECT_EQ(in.attribute<std::uint64_t>("/collective", "devices"), 16u);
  EXPECT_EQ(in.string_attribute("/collective", "data_type"), "float");
  EXPECT_EQ(in.string_attribute("/collective", "redop"), "sum");
  EXPECT_EQ(in.attribute<std::int64_t>("/collective", "root"), -1);
  EXPECT_EQ(in.attribute<std::uint64_t>("/collective", "min_bytes"), 1024u);
  EXPECT_EQ(in.attribute<std::uint64_t>("/collective", "max_bytes"), 1u << 20);
  EXPECT_EQ(in.attribute<std::uint64_t>("/collective", "step_factor"), 2u);
  EXPECT_EQ(in.attribute<double>("/collective", "bus_bandwidth_factor"), 2.0 * 15.0 / 16.0);
  const auto bytes = in.read<std::uint64_t>("/collective/size_bytes");
  const auto count = in.read<std::uint64_t>("/collective/count");
  const auto time = in.read<std::uint64_t>("/collective/time_ps");
  const auto algbw = in.read<double>("/collective/algorithm_bandwidth_Bps");
  const auto busbw = in.read<double>("/collective/bus_bandwidth_Bps");
  const auto algorithm = in.strings("/collective/algorithm");
  ASSERT_EQ(bytes.size(), 11u);  // 1 KiB, 2 KiB, ..., 1 MiB
  double busbw_sum = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], 1024u << i);
    EXPECT_EQ(count[i], bytes[i] / 4);
    EXPECT_EQ(time[i], report.results[i].time);
    ASSERT_GT(time[i], 0u);
    const double expected_algbw = static_cast<double>(bytes[i]) / (static_cast<double>(time[i]) * 1e-12);
    EXPECT_NEAR(algbw[i], expected_algbw, 1e-9 * expected_algbw);
    EXPECT_NEAR(busbw[i], expected_algbw * 2.0 * 15.0 / 16.0, 1e-9 * expected_algbw);
    busbw_sum += expected_algbw * 2.0 * 15.0 / 16.0;
    EXPECT_TRUE(algorithm[i] == "ring" || algorithm[i] == "tree" || algorithm[i] == "hierarchical") << algorithm[i];
  }
  const double average = in.attribute<double>("/collective", "average_bus_bandwidth_Bps");
  EXPECT_NEAR(average, busbw_sum / 11, 1e-9 * average);

  const H5Reader a(reference);
  for (const std::string dataset :
       {"/collective/size_bytes", "/collective/count", "/collective/time_ps", "/collective/algorithm_bandwidth_Bps",
        "/collective/bus_bandwidth_Bps", "/collective/algorithm", "/collective/channels", "/collective/pieces",
        "/collective/nccl_model_time_s"})
    EXPECT_EQ(a.raw(dataset), in.raw(dataset)) << dataset;
  EXPECT_EQ(a.attribute<double>("/collective", "average_bus_bandwidth_Bps"), average);
}

namespace {
tco::Totals totals(double scale) {
  tco::Totals t;
  t.seconds = 10 * scale;
  t.device_hours = 20 * scale;
  t.tokens = 1e6 * scale;
  t.it_energy_kwh = 30 * scale;
  t.facility_energy_kwh = 36 * scale;
  t.capex_amortized_usd = 40 * scale;
  t.energy_usd = 3.6 * scale;
  t.maintenance_usd = 2 * scale;
  t.opex_usd = 5.6 * scale;
  t.cost_usd = 45.6 * scale;
  t.operational_kgco2e = 14 * scale;
  t.embodied_llmcarbon_kgco2e = std::nan("");
  t.embodied_act_kgco2e = 1.5 * scale;
  t.embodied_kgco2e = 1.5 * scale;
  t.carbon_kgco2e = 15.5 * scale;
  t.cloud_equivalent_usd = 50 * scale;
  return t;
}

tco::TcoReport hand_filled(bool with_notes) {
  tco::TcoReport r;
  r.iterations = 1000;
  r.accelerators_capex_usd = 2.5e6;
  r.hosts_capex_usd = 1e6;
  r.network_capex_usd = 0.5e6;
  r.facility_capex_usd = 0.75e6;
  r.hardware_capex_usd = 4e6;
  r.capex_usd = 4.75e6;
  r.provisioned_it_kw = 75;
  r.hardware_value_lost = 0.01;
  r.facility_value_lost = 0.002;
  r.amortized_capex_usd_per_hour = 14.4;
  r.opex_usd_per_hour = 2.016;
  r.cost_usd_per_hour = 16.416;
  r.mean_it_power_kw = 60;
  r.accelerator_die_llmcarbon_kg = std::nan("");
  r.accelerator_die_act_kg = 12.5;
  r.accelerator_memory_kg = 8;
  r.host_llmcarbon_kg = 400;
  r.host_act_kg = 380;
  r.embodied_share = 0.001;
  r.per_iteration = totals(0.001);
  r.per_million_tokens = totals(1);
  r.whole_run = totals(1000);
  r.breakdown = {{"accelerators", 30000, 700}, {"energy", 3600, 14000}, {"facility", 12000, std::nullopt}};
  r.token_budget = 1'000'000'000;
  if (with_notes) r.notes = {"ACT figures for 4 nm interpolated", "token budget rounded up to whole iterations"};
  return r;
}
}  // namespace

TEST(TcoOutput, AHandFilledReportReadsBackUnderItsDocumentedNames) {
  const auto comm = world();
  const ScratchDir dir(comm, "tco");
  const auto s = io::load_scenario(std::string(RACKSCALE_EXAMPLE_CONFIGS) + "/fat-tree-128.yaml", {});
  for (const bool with_notes : {true, false}) {
    SCOPED_TRACE(with_notes);
    const std::string path = dir / (with_notes ? "notes.h5" : "no-notes.h5");
    io::RunMetadata run;
    run.workload = "training";
    run.partition_method = "block";
    app::write_results_file(comm, {path, false}, [&](rackscale::io::hdf5::File& file) {
      io::write_root_attributes(file, s, {"test", "none"}, run);
      io::write_tco(file, hand_filled(with_notes));
    });
    if (comm.rank() == 0) {
      const H5Reader in(path);
      EXPECT_EQ(in.attribute<std::uint64_t>("/tco", "iterations"), 1000u);
      EXPECT_EQ(in.attribute<double>("/tco", "accelerators_capex_usd"), 2.5e6);
      EXPECT_EQ(in.attribute<double>("/tco", "capex_usd"), 4.75e6);
      EXPECT_EQ(in.attribute<std::uint64_t>("/tco", "token_budget"), 1'000'000'000u);
      EXPECT_EQ(in.attribute<double>("/tco", "provisioned_it_power_W"), 75'000.0);
      EXPECT_DOUBLE_EQ(in.attribute<double>("/tco", "cost_usd_per_s"), 16.416 / 3600);
      EXPECT_EQ(in.attribute<double>("/tco", "accelerator_die_act_kgco2e"), 12.5);
      EXPECT_TRUE(std::isnan(in.attribute<double>("/tco", "accelerator_die_llmcarbon_kgco2e")));
      EXPECT_FALSE(in.has_attribute("/tco", "mean_it_power_W"));  // /energy's figure, not repeated here
      EXPECT_EQ(in.attribute<double>("/tco", "embodied_share"), 0.001);
      EXPECT_EQ(in.attribute<double>("/tco/whole_run", "cost_usd"), 45600.0);
      EXPECT_EQ(in.attribute<double>("/tco/whole_run", "time_s"), 10000.0);
      EXPECT_EQ(in.attribute<double>("/tco/whole_run", "device_time_s"), 20000.0 * 3600);
      EXPECT_EQ(in.attribute<double>("/tco/per_million_tokens", "facility_energy_kWh"), 36.0);
      EXPECT_EQ(in.attribute<double>("/tco/per_iteration", "carbon_kgco2e"), 15.5 * 0.001);
      EXPECT_TRUE(std::isnan(in.attribute<double>("/tco/per_iteration", "embodied_llmcarbon_kgco2e")));
      EXPECT_EQ(in.attribute_names("/tco/whole_run").size(), 17u);  // 16 figures and the description
      EXPECT_EQ(in.strings("/tco/breakdown/item"), (std::vector<std::string>{"accelerators", "energy", "facility"}));
      EXPECT_EQ(in.read<double>("/tco/breakdown/cost_usd"), (std::vector<double>{30000, 3600, 12000}));
      const auto carbon = in.read<double>("/tco/breakdown/carbon_kgco2e");
      ASSERT_EQ(carbon.size(), 3u);
      EXPECT_EQ(carbon[0], 700);
      EXPECT_EQ(carbon[1], 14000);
      EXPECT_TRUE(std::isnan(carbon[2])) << "not counted is NaN, not " << carbon[2];
      EXPECT_EQ(in.string_attribute("/tco/breakdown/cost_usd", "units"), "USD");
      const auto notes = in.string_attributes("/tco", "notes");
      if (with_notes) {
        EXPECT_EQ(notes, hand_filled(true).notes);
      } else {
        EXPECT_TRUE(notes.empty());
      }
      // The plotting test draws the TCO breakdown from this file (tests/output/plot_results.cmake).
      if (const char* keep = std::getenv("RACKSCALE_TCO_SAMPLE"); keep != nullptr && with_notes)
        fs::copy_file(path, keep, fs::copy_options::overwrite_existing);
    }
    comm.barrier();
  }
}
