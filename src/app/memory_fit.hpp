#pragma once
// Refusing, before anything is built, a run whose estimated memory (memory_estimate.hpp) does not fit
// the limit on its nodes (memory_limit.hpp); exit 3 (docs/reliability.md, "Memory").
#include <cstdint>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "app/memory_estimate.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// Collective. The estimate for comm.size() ranks; each rank compares the ranks on its own node times
// the per-rank estimate with its node's limit. Returns the refusal on every rank ("" when every node
// fits); the first rank whose node does not fit prints nothing itself, `printer` is true on that rank
// only. Also records the estimate for the out-of-memory message (memory_phase.hpp). Throws
// std::invalid_argument on every rank for a cluster or workload that cannot be built.
struct MemoryVerdict {
  MemoryEstimate estimate;
  std::string refusal;   // empty: fits (or no limit applies)
  bool printer = false;  // this rank's node is the first that does not fit: it reports
};
[[nodiscard]] MemoryVerdict check_memory_fits(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                              std::uint64_t max_memory_option);

}  // namespace rackscale::app
