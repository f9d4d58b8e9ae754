#pragma once
// The groups of a results file that describe the simulated cluster and how it ran, whatever the
// workload: /nodes, /racks, /links (per port: bytes, serialization time, utilization, queueing),
// /partition and /engine (docs/output.md). Rows are owned by the rank their rack was placed on; each
// rank writes its own, and per-port counts several ranks add to are first reduced onto the owners.
#include <cstdint>
#include <span>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/group.hpp"
#include "io/owned_rows.hpp"
#include "models/network/partition_report.hpp"
#include "models/network/port_counters.hpp"
#include "models/network/topology.hpp"
#include "pdes/engine.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::io {

// The cluster as the ranks own it; the references must outlive the object.
class NetworkRows {
 public:
  // rack_rank: rack -> rank, the same on every rank.
  NetworkRows(const boost::mpi::communicator& comm, const models::network::Topology& topology,
              std::span<const std::int32_t> rack_rank);

  [[nodiscard]] const boost::mpi::communicator& comm() const noexcept { return comm_; }
  [[nodiscard]] const models::network::Topology& topology() const noexcept { return topology_; }
  [[nodiscard]] std::span<const std::int32_t> rack_rank() const noexcept { return rack_rank_; }
  // The rank that owns each node: its rack's.
  [[nodiscard]] const std::vector<std::int32_t>& node_owner() const noexcept { return node_owner_; }
  // Devices, by device index, owned by their node's rank.
  [[nodiscard]] OwnedRows devices() const;

 private:
  const boost::mpi::communicator& comm_;
  const models::network::Topology& topology_;
  std::span<const std::int32_t> rack_rank_;
  std::vector<std::int32_t> node_owner_;
};

// Collective writers of one group each under `root`. Throw hdf5::Error.
void write_nodes(hdf5::Group& root, const NetworkRows& net);
void write_racks(hdf5::Group& root, const NetworkRows& net);
// `counters`: this rank's, indexed by port id (possibly with figures for ports other ranks own).
// `span_ps`: the run's length, the denominator of utilization (stored as the makespan_ps attribute).
void write_links(hdf5::Group& root, const NetworkRows& net, const models::network::PortCounters& counters,
                 pdes::SimTime span_ps);
void write_partition(hdf5::Group& root, const NetworkRows& net, const models::network::PartitionReport& partition);
void write_engine(hdf5::Group& root, const pdes::Engine& engine, const pdes::EngineStats& stats);

// All five, for a run on one engine: what every workload simulated on the cluster has in common.
void write_cluster_groups(hdf5::Group& root, const NetworkRows& net, const models::network::PortCounters& counters,
                          pdes::SimTime span_ps, const models::network::PartitionReport& partition,
                          const pdes::Engine& engine, const pdes::EngineStats& stats);

}  // namespace rackscale::io
