#pragma once
// A traffic run: the Session (sim/session.hpp) running the traffic workload (sim/traffic_workload.hpp).
// Used by `rackscale run` and by the network tests.
#include <boost/mpi/communicator.hpp>

#include "app/checkpoint_options.hpp"
#include "models/scenario.hpp"
#include "models/traffic/traffic_report.hpp"
#include "sim/run_options.hpp"
#include "sim/traffic_workload.hpp"

namespace rackscale::app {

// How the run is carried out (sim/run_options.hpp), and for traffic runs what receives it.
struct RunOptions : sim::RunOptions {
  // Called on every rank once the run's figures are reduced, before run_traffic returns (the results
  // file is written here); an exception it throws leaves run_traffic.
  sim::TrafficObserver on_finished;
};

// Collective. Throws std::invalid_argument (bad scenario or options, before simulating; messages start
// with the config key at fault), pdes::CheckpointRefused (a checkpoint that cannot be used),
// pdes::SimulationError (the run failed) and RunStopped (it stopped early).
[[nodiscard]] models::traffic::TrafficReport run_traffic(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                        const RunOptions& options);

}  // namespace rackscale::app
