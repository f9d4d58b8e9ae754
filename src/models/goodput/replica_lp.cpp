#include "models/goodput/replica_lp.hpp"

#include <algorithm>

#include "models/goodput/failure_draws.hpp"

namespace rackscale::models::goodput {
namespace {
constexpr pdes::EventKind kInterruption = 1;  // aux: the class; the record: Interruption
struct Interruption {
  std::uint64_t index;  // its place among its class's interruptions
};
}

ReplicaLp::ReplicaLp(pdes::LpId id, const RunPlan& plan)
    : LogicalProcess(id), plan_(plan), progress_(plan.schedules.size()), outcomes_(plan.schedules.size()),
      classes_(plan.classes.size()), pool_(plan.spares, plan.repair), running_(plan.schedules.size()) {
  for (std::size_t s = 0; s < plan_.schedules.size(); ++s) outcomes_[s].finish = plan_.schedules[s].time_to_finish(plan_.work);
}

void ReplicaLp::init() {
  for (std::uint32_t c = 0; c < plan_.classes.size(); ++c) schedule_next(c, 0);
}

void ReplicaLp::schedule_next(std::uint32_t cls, std::uint64_t index) {
  const pdes::SimTime delay = interarrival(plan_.classes[cls], plan_.seed, id(), cls, index);
  if (delay >= pdes::kNever - now()) return;  // beyond the clock
  send(id(), delay, kInterruption, pdes::to_payload(Interruption{index}), cls);
}

pdes::SimTime ReplicaLp::recovered(std::uint32_t cls, pdes::SimTime now) {
  // Saturating: a recovery past the clock's end leaves the run unfinished (finish kNever).
  pdes::SimTime ready = pdes::saturating_add(now, plan_.detection);
  if (plan_.classes[cls].replaces_node) {
    // Detection, then a node (a spare, or one back from repair), then the swap.
    ready = pdes::saturating_add(std::max(ready, pool_.node_failed(now)), plan_.hot_swap);
  }
  return std::max(up_, pdes::saturating_add(ready, plan_.restart));
}

void ReplicaLp::handle(const pdes::Event& event) {
  const std::uint32_t cls = event.aux;
  const pdes::SimTime t = now();
  const pdes::SimTime up = recovered(cls, t);
  for (std::size_t s = 0; s < progress_.size(); ++s) {
    Progress& p = progress_[s];
    ScheduleOutcome& o = outcomes_[s];
    if (p.finished) continue;
    if (o.finish <= t) {
      p.finished = true;
      --running_;
      continue;
    }
    const CheckpointSchedule& schedule = plan_.schedules[s];
    pdes::SimTime lost = 0;
    if (t >= p.start) {  // running: back to the last durable checkpoint
      const std::uint64_t saved = schedule.durable_checkpoints(t - p.start, plan_.work - p.saved);
      lost = t - p.start - schedule.segments_time(saved);
      p.saved += saved * schedule.interval;
    }
    const pdes::SimTime down = up - std::max(t, p.start);
    o.lost += lost;
    o.down += down;
    p.start = up;
    o.finish = pdes::saturating_add(up, schedule.time_to_finish(plan_.work - p.saved));
    if (s == 0) {
      ++classes_[cls].interruptions;
      classes_[cls].lost += lost;
      classes_[cls].down += down;
    }
  }
  up_ = up;
  if (running_ > 0) schedule_next(cls, event.as<Interruption>().index + 1);
}

}  // namespace rackscale::models::goodput
