#pragma once
// The run-level model's inputs, resolved: the job's ideal work, each interruption class as one process
// for the whole job, recovery times and the checkpoint schedules to compare (docs/goodput.md).
#include <cstdint>
#include <string>
#include <vector>

#include "models/goodput/checkpoint_schedule.hpp"
#include "models/goodput/goodput_spec.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::goodput {

// One class's interruptions of the whole job: a renewal process of this mean inter-arrival time.
struct ClassProcess {
  std::string name;
  double mean_ps = 0;          // 1 / (rate per component-hour x components), in ps; infinity: never
  double weibull_shape = 1.0;  // 1: exponential
  bool replaces_node = false;
};

struct RunPlan {
  pdes::SimTime work = 0;                 // the ideal (failure-free, checkpoint-free) training time
  std::vector<ClassProcess> classes;
  pdes::SimTime detection = 0;
  pdes::SimTime restart = 0;              // relaunch + reload of the checkpoint
  pdes::SimTime hot_swap = 0;
  pdes::SimTime repair = 0;
  std::uint32_t spares = 0;
  // [0]: the configured interval; the others: the sweep for the optimum. Every schedule sees the same
  // interruptions (common random numbers), so their differences are not noise between schedules.
  std::vector<CheckpointSchedule> schedules;
  std::uint64_t seed = 1;
  std::uint32_t replicas = 1;

  // Throws std::invalid_argument naming what is out of range (no schedules, an interval of 0, work
  // beyond the clock).
  void validate() const;
};

// Counts of the job's components, to scale per-component rates.
struct JobComponents {
  double devices = 0;
  double nodes = 0;
};

// Each class as one process of the whole job: mean inter-arrival 1 / (rate x components).
[[nodiscard]] std::vector<ClassProcess> class_processes(const std::vector<FailureClass>& classes,
                                                        const JobComponents& job);
// Interruptions per hour of the whole job, all classes together.
[[nodiscard]] double job_rate_per_hour(const std::vector<ClassProcess>& classes);

}  // namespace rackscale::models::goodput
