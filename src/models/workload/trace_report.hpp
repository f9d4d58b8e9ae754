#pragma once
// What a trace replay found (docs/traces.md): the makespan, each traced rank's busy and communication
// time, and the critical path.
#include <cstdint>
#include <string>
#include <vector>

#include "models/network/partition_report.hpp"
#include "models/workload/trace_device.hpp"
#include "pdes/statistic_registry.hpp"
#include "pdes/statistics.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::workload {

struct TraceRankFigures {
  std::uint32_t rank = 0;    // traced rank
  std::uint32_t device = 0;  // the device that replayed it
  std::uint64_t ops = 0;
  TraceDeviceStats stats;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & rank & device & ops & stats.compute & stats.host & stats.memory & stats.communication & stats.collectives &
        stats.sends & stats.receives & stats.bytes_sent & stats.end & stats.finished & stats.critical_path &
        stats.critical_ops & stats.critical_first & stats.critical_last;
  }
};

struct TraceReport {
  std::string files;                      // the pattern the traces came from
  std::uint32_t ranks = 0;                // traced ranks
  std::string topology;
  std::uint64_t devices = 0, switches = 0, cables = 0, racks = 0;  // the cluster's
  network::PartitionReport partition;
  std::vector<TraceRankFigures> per_rank; // by traced rank
  pdes::SimTime makespan = 0;             // the last op's end over all ranks
  // The longest critical path of any rank (the first such rank), with its ops and trace nodes.
  std::uint32_t critical_rank = 0;
  pdes::SimTime critical_path = 0;
  std::uint64_t critical_ops = 0;
  std::uint64_t critical_first = 0, critical_last = 0;
  std::uint64_t ops = 0;
  pdes::ReducedStatistics statistics;    // every figure the replay declared (sim/trace_workload.cpp)
  pdes::EngineTotals engine;
  double setup_seconds = 0, run_seconds = 0;
};

}  // namespace rackscale::models::workload
