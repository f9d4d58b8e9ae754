#pragma once
// The figures of an nccl-tests style collective sweep (app/collective_run fills it, io/collective_summary
// shows it).
#include <cstdint>
#include <string>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/network/partition_report.hpp"
#include "pdes/statistics.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::collectives {

// One size of the sweep. A simulated call moves no data, so in-place and out-of-place are the same call
// (nccl-tests times both; rackscale reports this one time for both).
struct CollectivePoint {
  std::uint64_t bytes = 0;       // nccl-tests' size column (collectives/bench_sizes.hpp)
  std::uint64_t count = 0;       // its count column: elements per rank in the call
  pdes::SimTime time = 0;        // first member's start to last member's end
  double algbw = 0;              // bytes / time, bytes/s (0 for a call of no bytes)
  double busbw = 0;              // algbw x the nccl-tests factor of the op
  accelerator::Algorithm algorithm = accelerator::Algorithm::ring;  // what ran
  std::uint32_t channels = 0;
  std::uint32_t pieces = 0;
  double predicted_seconds = 0;  // NCCL's model for what ran (its best protocol); 0 for non-NCCL algorithms
  std::uint64_t events = 0;      // engine events of this size's run, all ranks
  std::uint64_t windows = 0;     // its synchronization windows
  pdes::SimTime final_time = 0;  // its latest event time
  double wall_seconds = 0;       // this size's run (engine built, run, reduced), slowest rank
  pdes::EngineTotals engine;     // its engine's statistics (filled on rank 0)

  // For the checkpoints of a sweep, which hold the sizes already done.
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    auto ran = static_cast<std::uint8_t>(algorithm);
    ar & bytes & count & time & algbw & busbw & ran & channels & pieces & predicted_seconds & events & windows &
        final_time & wall_seconds & engine;
    algorithm = static_cast<accelerator::Algorithm>(ran);
  }
};

struct CollectiveReport {
  accelerator::CollectiveKind op = accelerator::CollectiveKind::all_reduce;
  accelerator::Algorithm requested = accelerator::Algorithm::automatic;
  std::uint32_t devices = 0;     // members
  std::string topology;
  std::uint64_t cluster_devices = 0;
  std::uint64_t switches = 0;
  network::PartitionReport partition;
  std::vector<CollectivePoint> results;
  double setup_seconds = 0;
  double run_seconds = 0;        // all sizes, slowest rank
};

// nccl-tests' "Avg bus bandwidth": the mean of the bus bandwidths of every row it printed (out-of-place
// and in-place, which are equal here), bytes/s; 0 for no rows.
[[nodiscard]] double average_bus_bandwidth(const CollectiveReport& report) noexcept;

// nccl-tests' bus bandwidth factor (its doc/PERFORMANCE.md): the share of the size that crosses the
// busiest link of an ideal implementation, so that busbw compares with the hardware's link bandwidth
// whatever the rank count. all_reduce 2 (n - 1) / n; reduce_scatter, all_gather, all_to_all, gather and
// scatter (n - 1) / n; broadcast, reduce and sendrecv 1.
[[nodiscard]] constexpr double bus_bandwidth_factor(accelerator::CollectiveKind op, std::uint32_t n) noexcept {
  const double ratio = n > 0 ? static_cast<double>(n - 1) / static_cast<double>(n) : 0.0;
  switch (op) {
    case accelerator::CollectiveKind::all_reduce: return 2.0 * ratio;
    case accelerator::CollectiveKind::broadcast:
    case accelerator::CollectiveKind::reduce:
    case accelerator::CollectiveKind::sendrecv: return 1.0;
    case accelerator::CollectiveKind::reduce_scatter:
    case accelerator::CollectiveKind::all_gather:
    case accelerator::CollectiveKind::all_to_all:
    case accelerator::CollectiveKind::gather:
    case accelerator::CollectiveKind::scatter: return ratio;
  }
  return 1.0;
}

}  // namespace rackscale::models::collectives
