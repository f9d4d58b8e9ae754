#include "app/training_run.hpp"

#include <optional>

#include <spdlog/spdlog.h>

#include "app/memory_phase.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

namespace {
// The steady-state iteration of the scenario's job without variability or degraded links: what a run with
// them reports its slowdown against. A run of its own (its own topology: the links at full rate), quiet,
// with no checkpoints, trace or results file.
pdes::SimTime perfect_iteration(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                const RunOptions& options, MemoryPhase& phase) {
  models::Scenario perfect = scenario;
  perfect.workload.training.variability = {};
  perfect.cluster.degraded_links.clear();
  RunOptions quiet = options;
  quiet.progress = nullptr;
  quiet.checkpoints = {};
  spdlog::info("simulating the job without variability first, for the slowdown "
               "(workload.variability.perfect_baseline: false skips it)");
  sim::Session session(comm, perfect, quiet, phase.marker());
  NoTrainingTrace no_trace;
  sim::TrainingWorkload workload(session, no_trace, ignore_training_run);
  sim::EngineRun engine_run;
  engine_run.quiet = true;
  (void)session.run(workload, engine_run);
  return workload.report().iteration_time;
}
}  // namespace

models::workload::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                              const RunOptions& options, const TrainingObserver& on_finished) {
  NoTrainingTrace no_trace;
  return run_training(comm, scenario, options, no_trace, on_finished);
}

models::workload::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                              const RunOptions& options, TrainingTrace& trace,
                                              const TrainingObserver& on_finished) {
  MemoryPhase phase("building the topology");
  std::optional<pdes::SimTime> perfect;
  const auto& variability = scenario.workload.training.variability;
  if ((variability.any() || !scenario.cluster.degraded_links.empty()) && variability.perfect_baseline)
    perfect = perfect_iteration(comm, scenario, options, phase);
  sim::Session session(comm, scenario, options, phase.marker());
  sim::TrainingWorkload workload(session, trace, on_finished);
  if (perfect) workload.set_perfect_iteration(*perfect);
  (void)session.run(workload);
  return workload.report();
}

}  // namespace rackscale::app
