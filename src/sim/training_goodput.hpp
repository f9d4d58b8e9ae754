#pragma once
// The goodput a training run's summary shows (docs/goodput.md, "In rackscale run"): the closed form of
// the run-level model (models/goodput/expected_run.hpp) with the scenario's interruption classes, recovery
// times and checkpoint store, over the simulated iteration time and the whole run's iterations, and the
// TCO over the expected effective time. Closed form rather than replicas: cheap beside any simulation,
// free of sampling noise, and the same on every rank by construction; `rackscale goodput` has the Monte
// Carlo with its spreads, spares and Weibull classes.
#include <cstdint>
#include <optional>

#include "models/goodput/expected_run.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/scenario.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/run_measures.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::sim {

// The checkpoint's size: goodput.checkpoint.size, else one copy of the weights and the optimizer state
// (memory_model.hpp's bytes per parameter: bf16 weights, fp32 master weights and Adam's two moments).
// Throws std::invalid_argument for a workload other than training without a size.
[[nodiscard]] std::uint64_t checkpoint_bytes(const models::Scenario& scenario);

// Nodes of a job of `devices`: whole nodes of cluster.devices_per_node.
[[nodiscard]] std::uint64_t job_nodes(const models::Scenario& scenario, std::uint64_t devices);

// The closed form's inputs for the scenario's training job on `devices`.
[[nodiscard]] models::goodput::ExpectedRunModel expected_run_model(const models::Scenario& scenario,
                                                                   std::uint64_t devices);

// The estimate for a finished run whose ideal TCO (report.tco) was computed from `measures`; empty when
// goodput.enabled is false or the run has no TCO. `inventory` and `power` are the cluster's: during a
// recovery every accelerator and host draws its idle power.
[[nodiscard]] std::optional<models::workload::TrainingGoodput> training_goodput(
    const models::Scenario& scenario, const models::workload::TrainingReport& report,
    const models::tco::RunMeasures& measures, const models::tco::HardwareInventory& inventory,
    const models::power::ClusterPower& power);

}  // namespace rackscale::sim
