#pragma once
// Wires an nccl-tests sweep together: topology -> rack partition -> for every size of the sweep
// (min_bytes, times step_factor or plus step_bytes, up to max_bytes; rounded as nccl-tests rounds it for
// the op and data type, collectives/bench_sizes.hpp), a fresh engine run of one call over the first
// `devices` devices -> time from the first member's start to the last member's end, reduced over
// ranks. Results are identical for any rank count.
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
