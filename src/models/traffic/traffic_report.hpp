#pragma once
// The figures of a traffic run, reduced over ranks: what the summary prints and the outputs record.
#include <cstdint>
#include <string>
#include <vector>

#include "models/network/partition_report.hpp"
#include "models/network/topology.hpp"
#include "pdes/statistic_registry.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::models::traffic {

struct LinkClassLoad {
  network::LinkClass link_class{};
  std::uint64_t ports = 0;        // directions of cables
  std::uint64_t bytes = 0;
  double mean_utilization = 0;    // busy time / makespan, averaged over the ports
  double max_utilization = 0;
  pdes::SimTime max_wait = 0;     // longest time a chunk queued at one of these ports
};

struct BusyPort {
  std::uint32_t port = 0;         // Topology port id
  network::NodeId from = 0;
  network::NodeId to = 0;
  network::LinkClass link_class{};
  std::uint64_t bytes = 0;
  double utilization = 0;
  pdes::SimTime max_wait = 0;
};

struct PortTotals {  // over all ranks, indexed by Topology port id
  std::vector<std::uint64_t> bytes, busy, waited, max_wait, chunks;
};

// Everything but `engine`, `per_port` and the lists is valid on every rank; those are rank 0's.
struct TrafficReport {
  // Every figure the run declared, reduced over ranks, for the generic writers (docs/sim.md).
  pdes::ReducedStatistics statistics;
  std::string topology;
  double setup_seconds = 0;  // slowest rank: topology build, partition and LP creation (before the run)
  std::uint64_t devices = 0, switches = 0, cables = 0, racks = 0;
  network::PartitionReport partition;
  std::uint64_t messages_planned = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t bytes_delivered = 0;
  pdes::SimTime makespan = 0;             // last delivery
  double aggregate_throughput = 0;        // bytes delivered / makespan, bytes/s
  double injection_bandwidth = 0;         // sum over senders of the first-hop port bandwidths used, bytes/s
  double line_rate_fraction = 0;          // aggregate_throughput / injection_bandwidth
  pdes::SimTime completion_min = 0, completion_p50 = 0, completion_p99 = 0, completion_max = 0;
  double completion_mean = 0;
  std::uint64_t completion_sum = 0;       // exact, over all delivered messages
  std::vector<LinkClassLoad> by_link_class;  // rank 0
  std::vector<BusyPort> busiest;             // rank 0: the 10 ports with the highest utilization
  PortTotals per_port;                       // rank 0
  pdes::EngineTotals engine;                 // rank 0
};

// "nic", "leaf_spine", ...: the names used in summaries and outputs.
[[nodiscard]] const char* link_class_name(network::LinkClass link_class);

}  // namespace rackscale::models::traffic
