#pragma once
// `rackscale goodput`: the run-level model (models/goodput) of a scenario's training run, its replicas
// over the ranks, and the time, energy, cost and carbon of the effective run next to the ideal one
// (docs/goodput.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "models/goodput/expected_run.hpp"
#include "models/goodput/monte_carlo.hpp"
#include "models/goodput/run_statistics.hpp"
#include "models/scenario.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::app {

struct GoodputRequest {
  std::uint32_t replicas = 100;
  std::optional<pdes::SimTime> iteration_time;  // empty: simulate one iteration of the training job
  std::optional<double> days;                   // the ideal run's length; empty: tco.token_budget's iterations
  std::uint64_t seed = 0;                       // 0: simulation.seed
  double utilization = 0.75;                    // accelerators' and hosts' while running (accounting)
};

// One checkpoint interval's figures over the replicas.
struct IntervalFigures {
  double interval_s = 0;
  models::goodput::Spread time_s;  // time to train
  std::uint32_t unfinished = 0;    // replicas past the simulator's clock (left out of the spread)
};

struct ClassFigures {
  std::string name;
  double per_day = 0;              // interruptions per day of the whole job (its rate)
  double interruptions = 0;        // mean per replica, before the run's end
  double lost_s = 0;               // mean per replica
  double down_s = 0;
};

struct GoodputReport {
  // Inputs, resolved.
  std::uint64_t devices = 0;
  std::uint64_t nodes = 0;
  std::uint32_t spares = 0;
  pdes::SimTime iteration_time = 0;
  bool iteration_simulated = false;
  std::uint64_t iterations = 0;
  double ideal_s = 0;
  std::uint64_t checkpoint_bytes = 0;
  double storage_Bps = 0;
  double write_s = 0;              // one checkpoint's write
  double stall_s = 0;              // the job's pause per checkpoint
  double restart_s = 0;            // relaunch + reload
  double mtbf_s = 0;               // of the whole job
  std::uint32_t replicas = 0;
  std::uint64_t seed = 0;
  // The configured interval's run.
  IntervalFigures configured;
  models::goodput::Spread goodput;  // ideal / effective time per replica
  double lost_s = 0, down_s = 0, checkpoint_s = 0;  // means per replica
  std::vector<ClassFigures> classes;
  // The intervals: Young/Daly's and the sweep's optimum.
  double young_daly_s = 0;
  std::vector<IntervalFigures> sweep;
  double optimum_s = 0;
  double optimum_time_s = 0;
  // The closed form's expected run at the configured interval (models/goodput/expected_run.hpp: what
  // `rackscale run` shows and `rackscale search --objective goodput_time` ranks), beside the replicas' mean.
  models::goodput::ExpectedRun closed_form;
  // Cost and carbon: the ideal run, and the spread of the effective one over replicas.
  models::tco::TcoReport ideal_tco;
  models::tco::TcoReport mean_tco;  // the replica-mean effective run (time and idle share)
  models::goodput::Spread cost_usd, carbon_kgco2e, energy_kwh;
  std::uint64_t events = 0;
  double wall_s = 0;
};

// Collective. Throws std::invalid_argument (bad scenario or request; messages start with the key at
// fault) and what a training simulation throws when the iteration time is simulated.
[[nodiscard]] GoodputReport run_goodput(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                        const GoodputRequest& request, const RunOptions& options);

}  // namespace rackscale::app
