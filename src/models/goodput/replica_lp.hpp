#pragma once
// One replica of the whole training run as a logical process (docs/goodput.md). Its events are the
// interruptions of each class, each scheduling the class's next; between them the job's progress,
// checkpoints and finishing time are arithmetic (checkpoint_schedule.hpp), so a 60-day run costs one
// event per interruption. Every checkpoint schedule of the plan is followed side by side over the same
// interruptions; the replica stops drawing once all of them have finished.
#include <cstdint>
#include <vector>

#include "models/goodput/run_plan.hpp"
#include "models/goodput/spare_pool.hpp"
#include "pdes/logical_process.hpp"

namespace rackscale::models::goodput {

// One schedule's run in a replica.
struct ScheduleOutcome {
  pdes::SimTime finish = 0;  // wall time to the end of training (kNever: beyond the clock, unfinished)
  pdes::SimTime lost = 0;    // work (and its stalls) since the last durable checkpoint, redone
  pdes::SimTime down = 0;    // detection, waiting for a node, hot swap, relaunch and reload
};

// Per class, for the configured schedule (the plan's first).
struct ClassOutcome {
  std::uint64_t interruptions = 0;  // before the run's end
  pdes::SimTime lost = 0;
  pdes::SimTime down = 0;
};

class ReplicaLp final : public pdes::LogicalProcess {
 public:
  // `plan` outlives the LP. The replica's number is its LP id.
  ReplicaLp(pdes::LpId id, const RunPlan& plan);

  void init() override;
  void handle(const pdes::Event& event) override;

  [[nodiscard]] const std::vector<ScheduleOutcome>& outcomes() const noexcept { return outcomes_; }
  [[nodiscard]] const std::vector<ClassOutcome>& classes() const noexcept { return classes_; }

 private:
  struct Progress {
    pdes::SimTime start = 0;  // the last (re)start
    pdes::SimTime saved = 0;  // work durable at the start
    bool finished = false;
  };

  // When the job is up again after an interruption of class `cls` at `now`.
  [[nodiscard]] pdes::SimTime recovered(std::uint32_t cls, pdes::SimTime now);
  void schedule_next(std::uint32_t cls, std::uint64_t index);

  const RunPlan& plan_;
  std::vector<Progress> progress_;
  std::vector<ScheduleOutcome> outcomes_;
  std::vector<ClassOutcome> classes_;
  SparePool pool_;
  pdes::SimTime up_ = 0;                // the job's last (re)start, shared by every schedule
  std::size_t running_ = 0;             // schedules not finished
};

}  // namespace rackscale::models::goodput
