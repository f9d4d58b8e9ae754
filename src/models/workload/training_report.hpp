#pragma once
// The figures of a training run, reduced over ranks: what the summary prints and the outputs record.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/accelerator/device_executor.hpp"
#include "models/workload/memory_model.hpp"
#include "models/workload/variability_report.hpp"
#include "models/workload/training_goodput.hpp"
#include "models/network/partition_report.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/run_measures.hpp"
#include "models/tco/bill_of_materials.hpp"
#include "models/tco/tco_report.hpp"
#include "pdes/statistic_registry.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::models::workload {

// A breakdown averaged over devices, in ps per iteration.
struct MeanBreakdown {
  double forward = 0, backward = 0, recompute = 0, optimizer = 0, other_compute = 0;
  double exposed_communication = 0, pipeline_bubble = 0, idle = 0;
  [[nodiscard]] double compute() const noexcept { return forward + backward + recompute + optimizer + other_compute; }
  [[nodiscard]] double total() const noexcept { return compute() + exposed_communication + pipeline_bubble + idle; }
};

struct CollectiveSummary {
  accelerator::GroupKind group{};
  accelerator::CollectiveKind kind{};
  accelerator::CollectiveTally tally;  // over all devices and iterations (time summed per device)
};

// The layout's group sizes (data parallelism resolved) and its micro-batches per replica per iteration.
struct LayoutSizes {
  std::uint64_t tensor = 1, pipeline = 1, data = 1, context = 1, expert = 1, virtual_stages = 1;
  std::uint64_t micro_batches = 0;
  std::uint64_t devices_per_stage = 0;
};

// Valid on every rank except where noted.
struct TrainingReport {
  // Every figure the run declared, reduced over ranks, for the generic writers (docs/sim.md).
  pdes::ReducedStatistics statistics;
  std::string topology;
  std::uint64_t devices = 0, switches = 0, cables = 0, racks = 0;
  network::PartitionReport partition;
  std::string layout;                        // "TP 8 x PP 8 x DP 24 (CP 1, EP 1), 1F1B interleaved x2, ..."
  LayoutSizes sizes;
  std::uint32_t iterations = 0;
  std::vector<pdes::SimTime> iteration_times;  // per iteration: the last device's end minus the previous one's
  pdes::SimTime iteration_time = 0;            // the last iteration's (steady state)
  std::uint64_t tokens_per_iteration = 0;
  double tokens_per_second = 0;
  double model_flops = 0, hardware_flops = 0;  // per iteration, whole job
  double mfu = 0, hfu = 0;                     // of the accelerators' dense bf16 peak
  std::string mfu_formula;                     // model FLOPs per token (model_flops_formula)
  std::string stack;                           // the software stack's name (stack_spec.hpp)
  double per_device_tflops = 0;                // hardware FLOPs per device per second / 1e12 (Megatron's figure)
  MeanBreakdown breakdown;                     // mean per device per iteration
  std::vector<MeanBreakdown> breakdown_by_stage;
  std::vector<CollectiveSummary> collectives;  // kinds that ran
  std::vector<MemoryBreakdown> memory; // per stage
  std::uint64_t memory_capacity = 0;
  std::string memory_warning;                  // from memory_warn_only
  std::uint64_t parameters = 0, active_parameters = 0;
  double setup_seconds = 0;
  // Energy (docs/tco.md): IT energy of the whole cluster over the simulated time (all iterations), exact
  // and identical on every rank; the mean IT power over that time; and energy per iteration by class,
  // the mean power times iteration_time (IT energy, before PUE).
  pdes::SimTime simulated_time = 0;
  power::ClassEnergy energy;
  double mean_it_watts = 0;
  tco::EnergyByClass energy_per_iteration_joules;
  std::vector<power::DeviceEnergy> device_energy;  // this rank's devices only, by device id
  // Cost and carbon from the scenario's `tco:` section; whole_run covers tco.token_budget when set,
  // else the iterations simulated. Empty only when the run has no iteration time.
  std::optional<tco::TcoReport> tco;
  // The whole run with its interruptions and checkpoints (goodput:, docs/goodput.md), the same on every
  // rank. Empty without a tco (no iteration time) or with goodput.enabled false.
  std::optional<TrainingGoodput> goodput;
  // The network's bill of materials (docs/tco.md), the same on every rank.
  std::optional<tco::BillOfMaterials> bom;
  pdes::EngineTotals engine;                   // rank 0 only
  // Set when the run had variability (workload.variability) or degraded links (cluster.degraded_links).
  std::optional<VariabilityReport> variability;
};

[[nodiscard]] const char* group_name(accelerator::GroupKind group);
[[nodiscard]] const char* collective_name(accelerator::CollectiveKind kind);
// "next stage", "previous stage", "next context-ring", "previous context-ring".
[[nodiscard]] const char* peer_name(accelerator::Peer peer);

}  // namespace rackscale::models::workload
