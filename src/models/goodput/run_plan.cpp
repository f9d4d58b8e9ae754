#include "models/goodput/run_plan.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::goodput {

void RunPlan::validate() const {
  if (schedules.empty()) throw std::invalid_argument("goodput: no checkpoint interval to simulate");
  if (work == 0) throw std::invalid_argument("goodput: the run has no work (its ideal time is 0)");
  if (replicas == 0) throw std::invalid_argument("goodput: --replicas must be at least 1");
  // Finishing times are sums of the work, its stalls and recoveries (saturating at the clock's end, which
  // marks a replica unfinished): the work and its checkpoints within half the clock, recoveries within
  // a sixteenth.
  constexpr double kLimit = static_cast<double>(pdes::kNever) / 2;
  for (const CheckpointSchedule& s : schedules) {
    if (s.interval == 0) throw std::invalid_argument("goodput: a checkpoint interval of 0");
    const double checkpoints = std::ceil(static_cast<double>(work) / static_cast<double>(s.interval));
    if (static_cast<double>(work) + checkpoints * static_cast<double>(s.stall) + static_cast<double>(s.write) > kLimit)
      throw std::invalid_argument(fmt::format(
          "goodput: the run's work and checkpoints ({:.4g} days) exceed half the simulator's clock (106 days)",
          (static_cast<double>(work) + checkpoints * static_cast<double>(s.stall)) / 1e12 / 86400));
  }
  for (const pdes::SimTime t : {detection, restart, hot_swap, repair})
    if (t > pdes::kNever / 16) throw std::invalid_argument("goodput: a recovery time beyond 13 days");
}

std::vector<ClassProcess> class_processes(const std::vector<FailureClass>& classes, const JobComponents& job) {
  std::vector<ClassProcess> out;
  for (const FailureClass& c : classes) {
    const double count = c.per == Component::device ? job.devices : c.per == Component::node ? job.nodes : 1.0;
    const double per_hour = c.rate_per_hour * count;
    ClassProcess p;
    p.name = c.name;
    p.mean_ps = per_hour > 0 ? 3600.0 * 1e12 / per_hour : std::numeric_limits<double>::infinity();
    p.weibull_shape = c.weibull_shape;
    p.replaces_node = c.replaces_node;
    out.push_back(p);
  }
  return out;
}

double job_rate_per_hour(const std::vector<ClassProcess>& classes) {
  double rate = 0;
  for (const ClassProcess& c : classes)
    if (std::isfinite(c.mean_ps)) rate += 3600.0 * 1e12 / c.mean_ps;
  return rate;
}

}  // namespace rackscale::models::goodput
