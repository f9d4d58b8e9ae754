#pragma once
// Wires a training scenario together: topology -> rack partition -> training plan (device programs,
// memory check) -> engine, network and accelerator LPs -> run -> figures reduced over ranks.
#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/training_trace.hpp"
#include "models/scenario.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::app {

// Collective. Throws std::invalid_argument (bad scenario, before simulating; messages start with the
// config key at fault), models::memory::InfeasibleJob (the job does not fit; before simulating),
// TraceRefused (before simulating) and pdes::SimulationError. `trace` records the traced devices' spans
// and writes its file when the run is done.
[[nodiscard]] models::workload::TrainingReport run_training(const boost::mpi::communicator& comm,
                                                            const models::Scenario& scenario, const RunOptions& options,
                                                            TrainingTrace& trace);
[[nodiscard]] models::workload::TrainingReport run_training(const boost::mpi::communicator& comm,
                                                            const models::Scenario& scenario, const RunOptions& options);

}  // namespace rackscale::app
