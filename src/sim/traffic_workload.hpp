#pragma once
// A synthetic traffic pattern as a Workload (sim/workload.hpp): every device sends the plan's messages;
// delivered messages, bytes and completion times reduced through the statistic registry, per-port
// figures gathered on rank 0.
#include <cstdint>
#include <functional>
#include <memory>

#include "models/traffic/traffic_device.hpp"
#include "models/traffic/traffic_plan.hpp"
#include "models/traffic/traffic_report.hpp"
#include "models/traffic/traffic_run_state.hpp"
#include "sim/session.hpp"
#include "sim/workload.hpp"

namespace rackscale::sim {

// Receives, on every rank, what the finished run left there (the results file is written here); an
// exception it throws leaves the run.
using TrafficObserver = std::function<void(const models::traffic::TrafficRunState&)>;

class TrafficWorkload final : public Workload {
 public:
  TrafficWorkload(Session& session, TrafficObserver on_finished);

  [[nodiscard]] std::string_view kind() const override { return "traffic"; }
  [[nodiscard]] std::unique_ptr<models::network::DeviceBehaviour> make_device(std::uint32_t device) override;
  // Messages delivered on this rank; the planned total counted once, on rank 0, since ranks' figures add.
  [[nodiscard]] pdes::WorkDone work() const override;
  void save(pdes::CheckpointWriter& out) override { out & stats_; }
  void load(pdes::CheckpointReader& in) override { in & stats_; }
  void record(const FinishedRun& run, pdes::StatisticRegistry& registry) override;
  void finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) override;

  [[nodiscard]] const models::traffic::TrafficReport& report() const noexcept { return report_; }

 private:
  Session& session_;
  TrafficObserver on_finished_;
  models::traffic::TrafficPlan plan_;
  models::traffic::TrafficStats stats_;
  models::traffic::TrafficReport report_;
};

}  // namespace rackscale::sim
