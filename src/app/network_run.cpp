#include "app/network_run.hpp"

#include "app/memory_phase.hpp"
#include "sim/session.hpp"

namespace rackscale::app {

models::traffic::TrafficReport run_traffic(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                           const RunOptions& options) {
  MemoryPhase phase("building the topology");
  sim::Session session(comm, scenario, options, phase.marker());
  sim::TrafficWorkload workload(session, options.on_finished);
  (void)session.run(workload);
  return workload.report();
}

}  // namespace rackscale::app
