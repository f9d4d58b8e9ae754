#pragma once
// What a layout's iteration time means for the whole training run, and the objectives a search ranks by.
//
// For an iteration of t seconds over G tokens (global batch x sequence) on N devices:
//   tokens/s = G / t;  MFU = model FLOPs per iteration / (t N peak bf16);
//   time to train = ceil(B / G) t for the token budget B (tco.token_budget; without one, one iteration);
//   cost and carbon: the TCO model's accounting of N x time-to-train device-hours (models/tco/accounting.hpp)
//   with the accelerators at a utilization equal to the iteration's compute share (busy / t);
//   tokens per dollar = B / cost.
// Objectives (lower is better, ties broken by the enumeration index so every rank ranks alike): time
// (time to train), cost, carbon, tokens_per_dollar (its inverse).
#include <cstdint>
#include <string>
#include <string_view>

#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/tco/hardware_inventory.hpp"
#include "models/tco/tco_settings.hpp"
#include "pdes/time.hpp"

namespace rackscale::search {

enum class Objective : std::uint8_t { time, cost, carbon, tokens_per_dollar };

// Throws std::invalid_argument ("--objective: expected time, cost, carbon or tokens_per_dollar, found 'x'").
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
  double cost_usd = 0;
  double carbon_kg = 0;
  double tokens_per_dollar = 0;
};

// Throws std::invalid_argument for a zero iteration time.
[[nodiscard]] RunFigures run_figures(const IterationFigures& iteration, std::uint64_t tokens_per_iteration,
                                     double model_flops_per_iteration, const CostModel& costs);

// The value ranked (lower is better).
[[nodiscard]] double score(Objective objective, const RunFigures& figures) noexcept;

}  // namespace rackscale::search
