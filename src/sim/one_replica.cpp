#include "sim/one_replica.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "models/collectives/member_layout.hpp"
#include "models/network/path.hpp"
#include "pdes/time.hpp"

namespace rackscale::sim {

namespace net = models::network;
namespace acc = models::accelerator;
namespace wl = models::workload;

namespace {

constexpr const char* kKey = "workload.simulated_replicas";

std::string describe(const net::PathFigures& p) {
  return fmt::format("{} hops, {} of latency, {:.4g} GB/s", p.hops, pdes::format_time(p.latency), p.bottleneck / 1e9);
}

bool same_path(const net::PathFigures& a, const net::PathFigures& b) {
  return a.hops == b.hops && a.latency == b.latency && a.bottleneck == b.bottleneck;
}

}  // namespace

net::ReplicaMirror replica_mirror_of(const models::Scenario& scenario) {
  if (scenario.workload.kind != models::WorkloadKind::training ||
      scenario.workload.training.simulated_replicas != wl::SimulatedReplicas::one)
    return {};
  const wl::TrainingLayout layout(scenario.workload.training, scenario.cluster.devices());
  return {layout.tensor() * layout.context(), layout.data()};
}

net::ReplicaMirror one_replica_mirror(const wl::TrainingLayout& layout, const net::ClusterSpec& cluster,
                                      const net::Topology& topology) {
  const std::uint32_t replicas = layout.data();
  const std::uint32_t stride = layout.tensor() * layout.context();
  const net::ReplicaMirror mirror(stride, replicas);
  // The groups inside a replica (expert groups are, by the config's check) and the peers of transfers.
  constexpr acc::GroupKind kInside[] = {acc::GroupKind::tensor, acc::GroupKind::context, acc::GroupKind::pipeline,
                                        acc::GroupKind::expert};
  constexpr acc::Peer kPeers[] = {acc::Peer::next_stage, acc::Peer::previous_stage, acc::Peer::next_context,
                                  acc::Peer::previous_context};
  for (std::uint32_t d = 0; d < layout.devices(); ++d) {
    if (!mirror.simulated(d)) continue;
    std::vector<std::uint32_t> partners;
    std::vector<std::vector<std::uint32_t>> groups;
    for (const acc::GroupKind kind : kInside) {
      groups.push_back(layout.group(d, kind));
      partners.insert(partners.end(), groups.back().begin(), groups.back().end());
    }
    for (const acc::Peer peer : kPeers)
      if (const auto p = layout.peer(d, peer)) partners.push_back(*p);
    std::vector<net::PathFigures> paths;
    for (const std::uint32_t q : partners)
      paths.push_back(q == d ? net::PathFigures{} : net::path_figures(topology, topology.devices[d], topology.devices[q], 0));
    std::vector<models::collectives::MemberLayout> spreads;
    for (const auto& g : groups) spreads.push_back(models::collectives::analyse_members(cluster, g));

    for (std::uint32_t r = 1; r < replicas; ++r) {
      const std::uint32_t twin = mirror.twin(d, r);
      for (std::size_t i = 0; i < partners.size(); ++i) {
        const std::uint32_t q = partners[i];
        if (q == d) continue;
        const net::PathFigures p =
            net::path_figures(topology, topology.devices[twin], topology.devices[mirror.twin(q, r)], 0);
        if (!same_path(p, paths[i]))
          throw ReplicasUnlike(fmt::format(
              "{}: one: replica {} is not placed like replica 0: the path from device {} to device {} has {}, its "
              "twin from device {} to device {} {}; use all",
              kKey, r, twin, mirror.twin(q, r), describe(p), d, q, describe(paths[i])));
      }
      for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<std::uint32_t> members = groups[g];
        for (std::uint32_t& m : members) m = mirror.twin(m, r);
        const models::collectives::MemberLayout spread = models::collectives::analyse_members(cluster, members);
        if (spread.per_domain != spreads[g].per_domain || spread.domains != spreads[g].domains ||
            spread.distinct_domains != spreads[g].distinct_domains)
          throw ReplicasUnlike(fmt::format(
              "{}: one: replica {} is not placed like replica 0: device {}'s group of {} spans {} scale-up domains, "
              "its twin device {}'s {}; use all",
              kKey, r, twin, members.size(), spread.distinct_domains, d, spreads[g].distinct_domains));
      }
    }
  }
  return mirror;
}

}  // namespace rackscale::sim
