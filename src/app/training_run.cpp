#include "app/training_run.hpp"

#include "app/memory_phase.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

models::workload::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                              const RunOptions& options, const TrainingObserver& on_finished) {
  NoTrainingTrace no_trace;
  return run_training(comm, scenario, options, no_trace, on_finished);
}

models::workload::TrainingReport run_training(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                              const RunOptions& options, TrainingTrace& trace,
                                              const TrainingObserver& on_finished) {
  MemoryPhase phase("building the topology");
  sim::Session session(comm, scenario, options, phase.marker());
  sim::TrainingWorkload workload(session, trace, on_finished);
  (void)session.run(workload);
  return workload.report();
}

}  // namespace rackscale::app
