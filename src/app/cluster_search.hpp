#pragma once
// `rackscale search --cluster-space`: the layout search (layout_search.hpp) on every cluster of a
// cluster space (search/cluster_space.hpp), each cluster's best layout by the objective, and the Pareto
// fronts of time to train against cost and against carbon over the clusters (docs/search.md).
#include <functional>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "app/layout_search.hpp"
#include "search/cluster_space.hpp"

namespace rackscale::app {

struct ClusterResult {
  search::ClusterPoint cluster;
  std::uint64_t devices = 0;
  std::string accelerator;
  std::uint64_t memory_per_device = 0;  // the accelerator's
  SearchResult search;                  // its layouts; ranked[0] is its best, if any fits
  bool on_cost_front = false;           // time to train against cost
  bool on_carbon_front = false;         // time to train against carbon
};

// Loads `config` with `overrides` and each cluster's, searches it. Collective. Throws as run_search and
// the config loader do (a bad preset name: io::ConfigError naming the override).
[[nodiscard]] std::vector<ClusterResult> run_cluster_search(const boost::mpi::communicator& comm,
                                                            const std::string& config,
                                                            const std::vector<std::string>& overrides,
                                                            const std::vector<search::ClusterPoint>& clusters,
                                                            const SearchOptions& options,
                                                            const SearchProgress& progress);

}  // namespace rackscale::app
