// The layout search's fixed costs on one config (docs/search.md, docs/performance.md): the whole default
// space enumerated and pruned (with each survivor's floor), and the floors alone over the survivors
// (sharing the collectives' closed forms between layouts as the pruning does).
//   bench_search CONFIG
// Plain timers: one shot of seconds, not a hot loop.
#include <chrono>
#include <cstdio>

#include "io/config/scenario_loader.hpp"
#include "models/workload/training_layout.hpp"
#include "search/iteration_bound.hpp"
#include "search/layout_candidates.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_search CONFIG\n");
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const auto scenario = rackscale::io::load_scenario(argv[1], {});
  const auto& job = scenario.workload.training;
  const auto& cluster = scenario.cluster;
  auto start = Clock::now();
  const auto space = rackscale::search::default_space(job, cluster);
  const auto pruning = rackscale::search::prune_layouts(job, cluster, space);
  const double prune = seconds(start);
  start = Clock::now();
  double sum = 0;
  rackscale::search::CollectiveTimes times(cluster);  // as the pruning shares them
  for (const auto& c : pruning.kept) {
    const rackscale::models::workload::TrainingLayout layout(rackscale::search::with_layout(job, c.parallel),
                                                             cluster.devices());
    sum += static_cast<double>(rackscale::search::bound_iteration(layout, times).iteration);
  }
  const double floors = seconds(start);
  std::printf("%s: %llu layouts, %zu kept; enumerated and pruned (floors included) in %.2f s; the floors alone "
              "%.2f s (%.1f us each)%s\n",
              argv[1], static_cast<unsigned long long>(pruning.layouts), pruning.kept.size(), prune, floors,
              pruning.kept.empty() ? 0.0 : 1e6 * floors / static_cast<double>(pruning.kept.size()),
              sum > 0 ? "" : " (no floor)");
  return 0;
}
