#pragma once
// What a rack placement gives each rank and costs the run: loads per rank, balance, cables and
// bandwidth between ranks, and the lookahead. Printed by `rackscale partition` (without simulating)
// and recorded with a run.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/network/rack_graph.hpp"
#include "models/network/replica_mirror.hpp"
#include "models/network/topology.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

struct RankLoad {
  std::uint32_t racks = 0;
  std::uint64_t lps = 0;  // nodes: devices + switches
  std::uint64_t devices = 0;
  std::uint64_t switches = 0;
  std::uint64_t weighed = 0;     // LPs that weigh in the balance (RackWeight): those that handle events
  std::uint64_t cut_cables = 0;  // cables with one end on this rank and the other elsewhere
  double cut_bandwidth = 0;      // their bandwidth, bytes/s, one direction per cable
};

struct PartitionReport {
  std::string method;
  int ranks = 1;
  std::vector<RankLoad> per_rank;  // index = rank
  // max weighed LPs on a rank / mean weighed LPs per rank (ranks with no racks count): 1.0 is perfect
  // balance. Weighed: every LP, or in analytical fidelity all but the scale-out switches (RackWeight).
  double imbalance = 1.0;
  std::uint64_t cross_rank_cables = 0;  // each cable counted once
  double cut_bandwidth = 0;             // bytes/s, one direction per cable (as in rack_graph)
  pdes::SimTime lookahead = pdes::kNever;  // cross_rank_lookahead in the fidelity; kNever when nothing crosses
};

// One pass over nodes and ports; `mirror` weighs a one-replica run's devices as rack_graph does. Throws std::invalid_argument if rack_rank does not have one entry per
// rack or names a rank outside [0, ranks).
[[nodiscard]] PartitionReport partition_report(const Topology& topology, std::string method,
                                               std::span<const std::int32_t> rack_rank, int ranks,
                                               Fidelity fidelity = Fidelity::chunk,
                                               const ReplicaMirror& mirror = {});

}  // namespace rackscale::models::network
