#pragma once
// What a layout's iteration time means for the whole training run, and the objectives a search ranks by.
//
// For an iteration of t seconds over G tokens (global batch x sequence) on N devices:
//   tokens/s = G / t;  MFU = model FLOPs per iteration / (t N peak bf16);
//   time to train = ceil(B / G) t for the token budget B (tco.token_budget; without one, one iteration);
//   cost and carbon: the TCO model's accounting of N x time-to-train device-hours (models/tco/accounting.hpp)
//   with the accelerators at a utilization equal to the iteration's compute share (busy / t);
//   tokens per dollar = B / cost.
//   goodput time = the expected time to train with the job's interruptions, recoveries and checkpoints:
//   the closed form of the run-level model (models/goodput/expected_run.hpp) for those iterations of t
//   on this cluster (docs/goodput.md, docs/search.md).
// Objectives (lower is better, ties broken by the enumeration index so every rank ranks alike): time
// (time to train), goodput_time (goodput time), cost, carbon, tokens_per_dollar (its inverse).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/goodput/expected_run.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/tco_settings.hpp"
#include "pdes/time.hpp"

namespace rackscale::search {

enum class Objective : std::uint8_t { time, cost, carbon, tokens_per_dollar, goodput_time };

// Throws std::invalid_argument ("--objective: expected time, goodput_time, cost, carbon or tokens_per_dollar,
// found 'x'").
[[nodiscard]] Objective parse_objective(std::string_view text);
[[nodiscard]] const char* objective_name(Objective objective) noexcept;

// An iteration as the estimate or the simulation gives it.
struct IterationFigures {
  pdes::SimTime iteration = 0;
  pdes::SimTime compute = 0;                // busy time of the compute units
  pdes::SimTime exposed_communication = 0;  // waiting for collectives and context-ring transfers
  pdes::SimTime pipeline_bubble = 0;        // waiting for pipeline transfers
};

// The cluster's side of the accounting, built once per search.
struct CostModel {
  models::tco::TcoSettings settings;
  models::tco::HardwareInventory inventory;
  models::power::ClusterPower power;
  std::string accelerator;
  double peak_flops = 0;  // one accelerator's dense bf16
  std::uint64_t devices = 0;
  // The job's interruptions and checkpoint (sim/training_goodput.hpp's expected_run_model); empty: none
  // (goodput time = time to train).
  std::optional<models::goodput::ExpectedRunModel> goodput;
};
[[nodiscard]] CostModel cost_model(const models::network::ClusterSpec& cluster,
                                   const models::network::Topology& topology, const models::tco::TcoSettings& settings);

struct RunFigures {
  double iteration_seconds = 0;
  double tokens_per_second = 0;
  double mfu = 0;
  double exposed_share = 0;  // of the iteration
  double bubble_share = 0;
  std::uint64_t iterations = 0;  // to train the token budget
  double time_to_train_seconds = 0;
  double goodput_time_seconds = 0;  // expected, with interruptions and checkpoints
  double cost_usd = 0;
  double carbon_kg = 0;
  double tokens_per_dollar = 0;
};

// Throws std::invalid_argument for a zero iteration time.
[[nodiscard]] RunFigures run_figures(const IterationFigures& iteration, std::uint64_t tokens_per_iteration,
                                     double model_flops_per_iteration, const CostModel& costs);

// The value ranked (lower is better).
[[nodiscard]] double score(Objective objective, const RunFigures& figures) noexcept;

// A lower bound of the score of every layout whose figures are at least `floor`'s (run_figures of an
// iteration floor, search/iteration_bound.hpp), for branch and bound. The score of the floor itself,
// except for goodput_time, whose closed form at the configured interval rounded to whole iterations is
// not monotonic in the iteration time: there, the floor's ideal time times the least expected time per
// unit of work over every interval (ExpectedRunModel::least_factor), below any layout's goodput time.
[[nodiscard]] double floor_score(Objective objective, const RunFigures& floor, const CostModel& costs) noexcept;

// Limits on a layout's run (--budget, --deadline): the rule a layout breaks ("over budget", "past the
// deadline"), or empty. The deadline applies to the time the objective ranks: the goodput time under
// goodput_time, the (ideal) time to train otherwise; the budget to the cost of the run.
struct RunLimits {
  std::optional<double> budget_usd;
  std::optional<double> deadline_seconds;
};
[[nodiscard]] std::string broken_limit(const RunLimits& limits, Objective objective, const RunFigures& figures);

}  // namespace rackscale::search
