#pragma once
// The run-level model's expectation in closed form (docs/goodput.md, "The closed form"): what a training
// run of given work is expected to take with its interruptions and checkpoints, without replicas. Cheap
// (no engine, no random draws) and a pure function of its inputs, so the same on every rank: what
// `rackscale run` prints after a training run and what `rackscale search --objective goodput_time` ranks.
//
// All classes superposed as one Poisson process of rate lambda = sum of the classes' rates. A segment of
// tau of work with its checkpoint pause s is exposed for x = tau + s; interrupted, it is redone from its
// start after a recovery. A recovery of R is itself restarted by an interruption during it (the
// Monte-Carlo model's "an interruption while down extends the recovery"), so a recovery episode lasts
// D = (e^(lambda R) - 1) / lambda on average, with e^(lambda R) interruptions. The renewal argument gives
// a segment's expected wall time (e^(lambda x) - 1)(1 / lambda + D): per segment e^(lambda x) - 1 recovery
// episodes, (e^(lambda x) - 1) / lambda - x of redone work.
//
// Exact for one Poisson class with enough spares; beside the Monte Carlo (`rackscale goodput`) it leaves
// out the Weibull shapes (each class at its mean rate), waiting for repairs when more nodes are out than
// there are spares, and an asynchronous write's tail (a segment counts as saved after its stall). With
// several classes R is their rate-weighted mean recovery.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/goodput/run_plan.hpp"

namespace rackscale::models::goodput {

struct ExpectedClass {
  std::string name;
  double per_day = 0;        // the class's interruptions per day of the whole job
  double interruptions = 0;  // expected in the run
  double down_s = 0;         // expected recovery time it causes
};

struct ExpectedRun {
  double work_s = 0;         // the ideal run
  double interval_s = 0;     // of work between checkpoints, whole iterations
  double time_s = 0;         // expected time to train
  double lost_s = 0;         // redone work (and its pauses)
  double down_s = 0;         // recoveries
  double checkpoint_s = 0;   // checkpoint pauses of the work kept
  double interruptions = 0;
  std::vector<ExpectedClass> classes;
  [[nodiscard]] double goodput() const noexcept { return time_s > 0 ? work_s / time_s : 1.0; }
};

// A job's interruptions, recoveries and checkpoint cost, resolved: what the closed form needs.
struct ExpectedRunModel {
  std::vector<ClassProcess> classes;  // of the whole job
  double detection_s = 0;
  double restart_s = 0;     // relaunch + reload
  double hot_swap_s = 0;    // classes that replace a node
  double write_s = 0;       // one checkpoint's write
  double stall_s = 0;       // the job's pause per checkpoint (the write, or its unhidden part)
  std::optional<double> interval_s;  // configured; empty: Young/Daly's

  // Interruptions per second of the whole job.
  [[nodiscard]] double rate() const noexcept;
  // The mean time between the job's interruptions, s (infinity without any).
  [[nodiscard]] double mtbf_s() const noexcept;
  // sqrt(2 s MTBF) (Young 1974; Daly 2006); for asynchronous checkpoints at least write - stall. Infinity
  // without interruptions.
  [[nodiscard]] double young_daly_s() const noexcept;
  // The interval minimizing the closed form's expected time per unit of work, s (0 when checkpoints cost
  // nothing: as often as possible; infinity without interruptions).
  [[nodiscard]] double optimal_interval_s() const noexcept;
  // The least expected wall time per unit of work over every interval (at the optimal one): a lower
  // bound of time_s / work_s for any interval and any work. >= 1.
  [[nodiscard]] double least_factor() const noexcept;
  // The expected run of `iterations` of `iteration_s` with the configured interval (or Young/Daly's)
  // rounded to whole iterations (at least one, at most the run), the last segment shorter when they do
  // not divide. Throws std::invalid_argument for a zero iteration time or no iterations.
  [[nodiscard]] ExpectedRun expected(double iteration_s, std::uint64_t iterations) const;

 private:
  // The expected mean recovery episode and interruptions per episode.
  [[nodiscard]] double mean_recovery_s() const noexcept;
  [[nodiscard]] double episode_s() const noexcept;
};

}  // namespace rackscale::models::goodput
