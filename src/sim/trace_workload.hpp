#pragma once
// A trace replay as a Workload (sim/workload.hpp; docs/traces.md): every rank reads the traces of its own
// devices only, checks them with the others' (send/receive pairs), and replays them; each traced rank's
// figures are declared as rows of the statistic registry (one row per traced rank, recorded by the rank
// that replayed it) and the report is derived from the reduced rows.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/collectives/member_layout.hpp"
#include "models/workload/trace_device.hpp"
#include "models/workload/trace_graph.hpp"
#include "models/workload/trace_program.hpp"
#include "models/workload/trace_report.hpp"
#include "sim/session.hpp"
#include "sim/workload.hpp"

namespace rackscale::sim {

// A trace that cannot be replayed (exit code 2): malformed or truncated, a cycle, an unknown collective,
// a send without its receive. The message starts with the trace file and names the node.
class TraceReplayRefused : public std::runtime_error {
 public:
  explicit TraceReplayRefused(const std::string& message) : std::runtime_error(message) {}
};

// Reads one trace file (the layer above knows the format): its graph, or TraceReplayRefused with a
// message naming the file and what is wrong.
using TraceReader = std::function<models::workload::TraceGraph(const std::string& file)>;

// Receives, on every rank, what the finished run left there and the report (the results file is written
// here); an exception it throws leaves the run.
using TraceObserver = std::function<void(const FinishedRun& run, const models::workload::TraceReport& report)>;

class TraceWorkload final : public Workload {
 public:
  // Collective: reads and prepares this rank's traces and checks every send against its receive. Throws
  // TraceReplayRefused on every rank (the lowest traced rank's error, whatever the rank count).
  TraceWorkload(Session& session, const TraceReader& read, TraceObserver on_finished = nullptr);

  [[nodiscard]] std::string_view kind() const override { return "trace"; }
  // A TraceDevice for a traced device, an idle one for a device no trace maps to.
  [[nodiscard]] std::unique_ptr<models::network::DeviceBehaviour> make_device(std::uint32_t device) override;
  // Ops finished and planned on this rank's devices.
  [[nodiscard]] pdes::WorkDone work() const override;
  // Nothing of this rank's outside its devices changes while the run runs: the devices save their
  // replays themselves (models/workload/trace_device.hpp).
  void save(pdes::CheckpointWriter& /*out*/) override {}
  void load(pdes::CheckpointReader& /*in*/) override {}
  void record(const FinishedRun& run, pdes::StatisticRegistry& registry) override;
  // Throws pdes::SimulationError on every rank when some traced rank did not finish.
  void finish(const FinishedRun& run, const pdes::ReducedStatistics& figures) override;

  [[nodiscard]] const models::workload::TraceReport& report() const noexcept { return report_; }

 private:
  Session& session_;
  TraceObserver on_finished_;
  // This rank's traced devices' programs, by device.
  std::map<std::uint32_t, std::shared_ptr<const models::workload::TraceProgram>> programs_;
  std::vector<const models::workload::TraceDevice*> devices_;  // this rank's replays
  std::shared_ptr<models::collectives::MemberLayouts> layouts_ = std::make_shared<models::collectives::MemberLayouts>();
  models::workload::TraceReport report_;
};

}  // namespace rackscale::sim
