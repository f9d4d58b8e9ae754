#pragma once
// Pods sized to a training job (docs/network.md, "Pods for a training job"): the NIC spans of the job's
// communication-heavy groups, which a derived fat-tree pod holds a whole number of where one fits.
//
// Megatron's device order (training_layout.hpp) keeps tensor-parallel groups inside a node, and a
// pipeline stage's T x C x D devices consecutive: every data-parallel (x context) group, and every
// expert- and context-parallel group, lies inside its stage. A pod that holds whole stages therefore
// holds whole DP groups, as Llama 3's 3,072-GPU pods held its data-parallel traffic below the
// oversubscribed aggregation tier. Spans, most preferred first: the stage (T x C x D: its DP x CP
// groups); then, when a stage is larger than any pod, an EP group's T x E devices and a CP group's
// T x C. Groups that stay inside a node never reach a pod boundary and are left out.
#include <cstdint>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::models::workload {

// The spans above for `spec` on `cluster` (the spec must be valid for the cluster's devices); empty when
// the devices have no scale-out NIC each (nics_per_node differs from devices_per_node).
[[nodiscard]] std::vector<std::uint32_t> job_group_endpoints(const TrainingSpec& spec,
                                                             const network::ClusterSpec& cluster);

// Puts job_group_endpoints into cluster.scale_out.fat_tree for a fat tree or rail fat tree.
void align_pods_to_job(network::ClusterSpec& cluster, const TrainingSpec& spec);

}  // namespace rackscale::models::workload
