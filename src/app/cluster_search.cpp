#include "app/cluster_search.hpp"

#include <fmt/format.h>

#include "io/config/scenario_loader.hpp"
#include "search/pareto_front.hpp"

namespace rackscale::app {

std::vector<ClusterResult> run_cluster_search(const boost::mpi::communicator& comm, const std::string& config,
                                              const std::vector<std::string>& overrides,
                                              const std::vector<search::ClusterPoint>& clusters,
                                              const SearchOptions& options, const SearchProgress& progress) {
  std::vector<ClusterResult> results;
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    std::vector<std::string> sets = overrides;
    sets.insert(sets.end(), clusters[i].overrides.begin(), clusters[i].overrides.end());
    const models::Scenario scenario = io::load_scenario(config, sets);
    ClusterResult r;
    r.cluster = clusters[i];
    r.devices = scenario.cluster.devices();
    r.accelerator = scenario.cluster.accelerator.name;
    r.memory_per_device = scenario.cluster.accelerator.memory_bytes;
    progress(fmt::format("cluster {} of {}: {} ({} devices)", i + 1, clusters.size(), clusters[i].name, r.devices));
    r.search = run_search(comm, scenario, options, [&](const std::string& line) { progress("  " + line); });
    results.push_back(std::move(r));
  }
  // The fronts over the clusters whose best layout ran (or was estimated) without failure.
  std::vector<std::size_t> fitting;
  std::vector<search::ParetoPoint> cost, carbon;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& ranked = results[i].search.ranked;
    if (ranked.empty() || !ranked[0].failure.empty()) continue;
    const search::RunFigures& f = ranked[0].figures;
    fitting.push_back(i);
    // Ranked by the goodput time, the fronts are of it too: the time a run is expected to take.
    const double time = options.objective == search::Objective::goodput_time ? f.goodput_time_seconds
                                                                              : f.time_to_train_seconds;
    cost.push_back({time, f.cost_usd});
    carbon.push_back({time, f.carbon_kg});
  }
  for (std::size_t k : search::pareto_front(cost)) results[fitting[k]].on_cost_front = true;
  for (std::size_t k : search::pareto_front(carbon)) results[fitting[k]].on_carbon_front = true;
  return results;
}

}  // namespace rackscale::app
