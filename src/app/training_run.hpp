#pragma once
// A training run: the Session (sim/session.hpp) running the training workload
// (sim/training_workload.hpp): topology -> rack partition -> training plan (device programs, memory
// check) -> engine, network and accelerator LPs -> run -> figures reduced over ranks.
#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/training_trace.hpp"
#include "models/scenario.hpp"
#include "models/workload/training_report.hpp"
#include "sim/training_workload.hpp"

namespace rackscale::app {

using sim::ignore_training_run;
using sim::TrainingObserver;

// Collective. Calls `on_finished` once the figures are reduced, before returning. Throws
// std::invalid_argument (bad scenario, before simulating; messages start with the config key at
// fault), models::memory::InfeasibleJob (the job does not fit; before simulating), TraceRefused
// (before simulating) and pdes::SimulationError. `trace` records the traced devices' spans and writes
// its file when the run is done.
[[nodiscard]] models::workload::TrainingReport run_training(const boost::mpi::communicator& comm,
                                                            const models::Scenario& scenario, const RunOptions& options,
                                                            TrainingTrace& trace,
                                                            const TrainingObserver& on_finished = ignore_training_run);
// The same, tracing nothing.
[[nodiscard]] models::workload::TrainingReport run_training(const boost::mpi::communicator& comm,
                                                            const models::Scenario& scenario, const RunOptions& options,
                                                            const TrainingObserver& on_finished = ignore_training_run);

}  // namespace rackscale::app
