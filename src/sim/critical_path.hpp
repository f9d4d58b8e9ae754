#pragma once
// The critical path of a training run with variability (issue 26, item 1): which device computed
// longest, which one finished last (set the run's end), which link was busiest and how loaded the
// degraded ones were. Declared as figures of the statistic registry, so the text summary, --json and the
// results file's /statistics carry them (docs/goodput.md, "Variability inside an iteration").
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include <boost/mpi/communicator.hpp>

#include "models/accelerator/device_executor.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/topology.hpp"
#include "models/workload/variability_report.hpp"
#include "pdes/statistic_registry.hpp"

namespace rackscale::sim {

using LocalExecutors = std::span<const std::pair<std::uint32_t, const models::accelerator::DeviceExecutor*>>;

struct CriticalPathInputs {
  const models::network::Topology* topology = nullptr;
  LocalExecutors executors;                      // this rank's devices
  std::span<const std::uint64_t> port_busy;      // every port's busy ps, summed over ranks
  std::span<const models::network::DegradedLink> degraded;
  std::optional<pdes::SimTime> perfect_iteration;
};

// Collective (two small reductions to find the maxima, whose holders are then recorded as minima of
// device ids): declares the figures and records this rank's values.
void record_critical_path(const boost::mpi::communicator& comm, const CriticalPathInputs& in,
                          pdes::StatisticRegistry& registry);

// The report from the reduced figures. `variability` and `seed` give the named devices' speed factors back
// (a pure function of both); `iteration_time` is this run's steady-state iteration.
[[nodiscard]] models::workload::VariabilityReport critical_path_report(
    const pdes::ReducedStatistics& figures, const models::network::Topology& topology,
    std::span<const models::network::DegradedLink> degraded, const models::accelerator::VariabilitySpec& variability,
    std::uint64_t seed, pdes::SimTime iteration_time);

}  // namespace rackscale::sim
