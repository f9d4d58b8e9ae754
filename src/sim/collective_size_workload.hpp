#pragma once
// One size of a collective benchmark's sweep as a Workload (sim/workload.hpp): one call of the
// benchmark's collective over its members, timed from the first member's start to the last member's
// end; the sweep (sim/collective_sweep.hpp) runs one engine of it per size, as nccl-tests times each
// size on its own.
#include <cstdint>
#include <memory>

#include "models/collectives/collective_bench_device.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/collectives/collective_report.hpp"
#include "models/collectives/cost_model.hpp"
#include "models/collectives/member_layout.hpp"
#include "sim/session.hpp"
#include "sim/workload.hpp"

namespace rackscale::sim {

class CollectiveSizeWorkload final : public Workload {
 public:
  // `call` (with its bytes set; its devices hold it) and `figures` (for NCCL's predicted time) outlive the workload.
  CollectiveSizeWorkload(Session& session, models::collectives::CollectiveCall& call,
                         const models::collectives::FabricFigures& figures, std::uint64_t count);

  [[nodiscard]] std::string_view kind() const override { return "collective"; }
  [[nodiscard]] std::unique_ptr<models::network::DeviceBehaviour> make_device(std::uint32_t device) override;
  // Members finished on this rank; a size runs briefly, so the sweep shows no progress (docs/cli.md).
  [[nodiscard]] pdes::WorkDone work() const override { return {stats_.completed, 0}; }
  void save(pdes::CheckpointWriter& out) override { out & stats_; }
  void load(pdes::CheckpointReader& in) override { in & stats_; }
  void record(const FinishedRun& run, pdes::StatisticRegistry& registry) override;
  // Throws pdes::SimulationError when a member did not finish before the run's end.
  void finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) override;

  // The size's results but its wall time (the sweep's to measure).
  [[nodiscard]] const models::collectives::CollectivePoint& point() const noexcept { return point_; }

 private:
  Session& session_;
  models::collectives::CollectiveCall& call_;
  const models::collectives::FabricFigures& figures_;
  // The model's defaults but the sweep's channels (workload.channels), for every member's engine.
  models::collectives::CollectiveOptions options_;
  models::collectives::BenchStats stats_;
  // One layout cache for the rank's engines: each call's member list is analysed once per rank.
  std::shared_ptr<models::collectives::MemberLayouts> layouts_ = std::make_shared<models::collectives::MemberLayouts>();
  models::collectives::CollectivePoint point_;
};

}  // namespace rackscale::sim
