#include "models/scenario.hpp"

#include <fmt/format.h>

#include "models/network/fidelity.hpp"

namespace rackscale::models {

std::string Scenario::locate(const std::string& key_path) const {
  std::string path = key_path;
  while (!path.empty()) {
    if (const auto it = key_locations.find(path); it != key_locations.end()) return it->second + ": ";
    const auto dot = path.rfind('.');
    path = dot == std::string::npos ? std::string{} : path.substr(0, dot);
  }
  return source_file.empty() ? std::string{} : source_file + ": ";
}

std::string one_replica_refusal(const Scenario& scenario) {
  const workload::TrainingSpec& t = scenario.workload.training;
  if (scenario.workload.kind != WorkloadKind::training) return "it simulates a training job only";
  if (scenario.network.fidelity != network::Fidelity::analytical)
    return fmt::format("it needs network.fidelity: analytical (replicas contend for links in the other fidelities), "
                       "found {}",
                       network::fidelity_name(scenario.network.fidelity));
  if (scenario.network.collectives == network::CollectiveModel::messages)
    return "it needs collectives in closed form (a data-parallel call is then the only meeting of replicas), found "
           "network.collectives: messages";
  if (t.variability.any()) return "it cannot take workload.variability (which tells the replicas' devices apart)";
  if (!scenario.cluster.degraded_links.empty())
    return "it cannot take cluster.degraded_links (which tell the replicas' paths apart)";
  if (t.parallel.expert > 1 && t.parallel.context % t.parallel.expert != 0)
    return fmt::format("it needs each expert group inside one replica: parallel.expert {} must divide "
                       "parallel.context {}",
                       t.parallel.expert, t.parallel.context);
  return {};
}

}  // namespace rackscale::models
