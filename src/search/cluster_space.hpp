#pragma once
// The clusters a cluster search tries (`rackscale search --cluster-space`, docs/search.md): one list of
// values per knob, the clusters the product of the lists, each stated as config overrides of the
// scenario's cluster section (the same as `--set`):
//   accelerator       cluster.accelerator                          preset names (rackscale presets)
//   nic               cluster.nic                                  preset names
//   oversubscription  cluster.scale_out.fat_tree.oversubscription  numbers (1: non-blocking)
//   domain            cluster.scale_up.domain_devices              devices per scale-up domain
//   nodes             cluster.nodes                                node counts (the budget: the largest)
// Example: accelerator=h100-sxm5-80gb,b200-hgx nic=connectx7-400g,connectx8-800g oversubscription=1,2
// An axis not named keeps the config's value. Order: accelerator slowest, then nic, oversubscription,
// domain, nodes.
#include <string>
#include <string_view>
#include <vector>

namespace rackscale::search {

struct ClusterPoint {
  std::string name;                    // "accelerator=b200-hgx nic=connectx8-800g" (the axes named)
  std::vector<std::string> overrides;  // "cluster.accelerator=b200-hgx", ...
};

// Throws std::invalid_argument naming `--cluster-space`, the item, what was expected and what was found.
[[nodiscard]] std::vector<ClusterPoint> parse_cluster_space(std::string_view text);

}  // namespace rackscale::search
