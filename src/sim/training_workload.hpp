#pragma once
// A training job as a Workload (sim/workload.hpp): the built-in Megatron-style plan's per-device
// programs run by accelerator executors; its figures — iteration ends, time breakdowns by stage,
// collective tallies, port busy times, energy — reduced through the statistic registry.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "models/accelerator/device_executor.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/workload/training_plan.hpp"
#include "models/workload/training_report.hpp"
#include "models/workload/group_directory.hpp"
#include "models/workload/training_role.hpp"
#include "models/workload/training_run_state.hpp"
#include "sim/session.hpp"
#include "sim/training_trace.hpp"
#include "sim/workload.hpp"

namespace rackscale::sim {

// Receives, on every rank, what the finished run left there (the results file is written here); an
// exception it throws leaves the run.
using TrainingObserver = std::function<void(const models::workload::TrainingRunState&)>;
// The observer of runs nobody records.
inline void ignore_training_run(const models::workload::TrainingRunState&) {}

class TrainingWorkload final : public Workload {
 public:
  // Builds the training plan for the session's cluster and checks it against `trace`. Throws
  // std::invalid_argument (bad scenario), models::memory::InfeasibleJob and TraceRefused.
  TrainingWorkload(Session& session, TrainingTrace& trace, TrainingObserver on_finished);

  [[nodiscard]] std::string_view kind() const override { return "training"; }
  [[nodiscard]] std::unique_ptr<models::network::DeviceBehaviour> make_device(std::uint32_t device) override;
  [[nodiscard]] models::network::ReplicaMirror mirror() const override { return mirror_; }
  [[nodiscard]] pdes::WorkDone work() const override;
  void save(pdes::CheckpointWriter& out) override { out & tallies_; }
  void load(pdes::CheckpointReader& in) override { in & tallies_; }
  void record(const FinishedRun& run, pdes::StatisticRegistry& registry) override;
  void finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) override;

  [[nodiscard]] const models::workload::TrainingReport& report() const noexcept { return report_; }
  // Whether the run has variability inside the iteration (workload.variability or cluster.degraded_links):
  // its figures then include the critical path (critical_path.hpp).
  [[nodiscard]] bool varies() const;
  // The steady-state iteration of the same job without variability, to report the slowdown against.
  void set_perfect_iteration(pdes::SimTime iteration) { perfect_iteration_ = iteration; }

 private:
  void meter_energy(const FinishedRun& run);
  // Collective: the statistics of every device this rank owns, by device: its executor's, or in a
  // one-replica run, for a device that did not run, its twin's in replica 0 (gathered from the ranks).
  void collect_device_stats(const boost::mpi::communicator& comm);
  // Every port's busy time summed over ranks (a message's ports are counted by the rank that sent it):
  // a per-port table, not a figure, reduced as one vector the first time it is asked for (collective).
  const std::vector<std::uint64_t>& port_busy(const FinishedRun& run);

  Session& session_;
  TrainingTrace& trace_;
  TrainingObserver on_finished_;
  models::workload::TrainingPlan plan_;
  models::workload::GroupDirectory groups_;
  std::vector<std::shared_ptr<const models::accelerator::ProgramIndex>> indexes_;
  models::accelerator::CollectiveTallies tallies_;
  // One layout cache for the rank's engines: each group's member list is analysed once per rank.
  std::shared_ptr<models::collectives::MemberLayouts> layouts_;
  std::vector<std::pair<std::uint32_t, const models::accelerator::DeviceExecutor*>> executors_;  // this rank's, by device
  // One-replica runs (one_replica.hpp): replica 0 acts for the others, whose devices here are idle.
  models::network::ReplicaMirror mirror_;
  std::vector<std::uint32_t> idle_;  // this rank's devices acted for by their twins, in increasing order
  // collect_device_stats(): every device this rank owns, by device, and the twins' statistics it points into.
  std::vector<std::pair<std::uint32_t, const models::accelerator::DeviceStats*>> device_stats_;
  std::vector<models::accelerator::DeviceStats> twin_stats_;
  models::workload::TrainingReport report_;
  std::optional<pdes::SimTime> perfect_iteration_;
  std::vector<std::uint64_t> port_busy_;  // port_busy()'s table, empty until reduced
};

}  // namespace rackscale::sim
