#pragma once
// One replica for all (workload.simulated_replicas: one; docs/models.md): the mirror of a training job
// whose data-parallel replicas are alike, so that replica 0 can stand for every replica.
//
// In analytical fidelity with closed-form collectives and no variability (checked with the config), the
// replicas run the same programs, and a data-parallel call ends at one time for all its members
// (collectives/closed_form.hpp), so each replica's timeline is replica 0's, provided the replica is
// placed like replica 0: each within-replica transfer's path (its hops, latency and bottleneck
// bandwidth) and each within-replica group's spread over scale-up domains are those of its twin in
// replica 0. That is what is checked here, device by device, for every replica.
#include <stdexcept>

#include "models/network/replica_mirror.hpp"
#include "models/scenario.hpp"
#include "models/network/topology.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::sim {

// A job whose replicas are not placed alike: replica 0 cannot stand for them (the run can still simulate
// them all).
class ReplicasUnlike : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The mirror a scenario asks for, unchecked (the placement weighs only the devices it simulates): the
// identity unless it is a training job with workload.simulated_replicas: one.
[[nodiscard]] models::network::ReplicaMirror replica_mirror_of(const models::Scenario& scenario);

// The mirror of `layout` on `topology`: replica 0 standing for the layout's data-parallel replicas.
// Throws ReplicasUnlike, starting with the key workload.simulated_replicas, naming the first device
// whose path or group differs from its twin's in replica 0.
[[nodiscard]] models::network::ReplicaMirror one_replica_mirror(const models::workload::TrainingLayout& layout,
                                                                const models::network::ClusterSpec& cluster,
                                                                const models::network::Topology& topology);

}  // namespace rackscale::sim
