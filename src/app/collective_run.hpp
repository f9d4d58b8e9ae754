#pragma once
// An nccl-tests sweep: the Session (sim/session.hpp) running the sweep of sim/collective_sweep.hpp —
// for every size, a fresh engine run of one call over the first `devices` devices, timed from the first
// member's start to the last member's end, reduced over ranks. Results are identical for any rank
// count.
#include <boost/mpi/communicator.hpp>

#include "app/network_run.hpp"
#include "app/results_output.hpp"
#include "models/collectives/collective_report.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// Collective. Throws std::invalid_argument (bad scenario or options, before simulating; messages start
// with the config key at fault) and pdes::SimulationError.
[[nodiscard]] models::collectives::CollectiveReport run_collective(const boost::mpi::communicator& comm,
                                                                   const models::Scenario& scenario,
                                                                   const RunOptions& options);

// `rackscale run` on a collective scenario: checks the results file (before simulating), runs the
// sweep, writes the file (io/collective_results.hpp) when `output` names one, prints the summary on
// rank 0 (and the JSON object as the last line with `json`) and returns the exit code.
[[nodiscard]] int run_collective_scenario(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                          const RunOptions& options, bool json, const OutputOptions& output);

}  // namespace rackscale::app
