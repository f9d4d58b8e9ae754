#include "models/workload/job_pods.hpp"

#include <algorithm>

#include "models/workload/training_layout.hpp"

namespace rackscale::models::workload {

std::vector<std::uint32_t> job_group_endpoints(const TrainingSpec& spec, const network::ClusterSpec& cluster) {
  if (cluster.nics_per_node != cluster.devices_per_node) return {};
  const TrainingLayout layout(spec, cluster.devices());
  const std::uint32_t t = layout.tensor();
  std::vector<std::uint32_t> spans;
  for (const std::uint64_t span : {std::uint64_t{layout.devices_per_role()}, std::uint64_t{t} * layout.expert(),
                                   std::uint64_t{t} * layout.context()}) {
    if (span <= cluster.devices_per_node) continue;  // inside a node
    if (std::find(spans.begin(), spans.end(), span) == spans.end()) spans.push_back(static_cast<std::uint32_t>(span));
  }
  return spans;
}

void align_pods_to_job(network::ClusterSpec& cluster, const TrainingSpec& spec) {
  const network::ScaleOutKind kind = cluster.scale_out.kind;
  if (kind != network::ScaleOutKind::fat_tree && kind != network::ScaleOutKind::rail_fat_tree) return;
  cluster.scale_out.fat_tree.job_group_endpoints = job_group_endpoints(spec, cluster);
}

}  // namespace rackscale::models::workload
