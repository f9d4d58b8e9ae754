#include "models/collectives/member_layout.hpp"

#include <algorithm>
#include <vector>

namespace rackscale::models::collectives {

std::uint32_t domain_of(const network::ClusterSpec& cluster, std::uint32_t device) noexcept {
  const bool scale_up = cluster.scale_up.kind != network::ScaleUpKind::none && cluster.scale_up.domain_devices > 1;
  return scale_up ? device / cluster.scale_up.domain_devices : device;
}

std::uint32_t MemberLayout::ring_position(std::uint32_t rank, std::uint32_t channel) const noexcept {
  const std::uint32_t n = domain_index(rank);
  const std::uint32_t L = per_domain;
  const std::uint32_t entry = static_cast<std::uint32_t>((channel + L - n % L) % L);
  return n * L + (local_index(rank) + L - entry) % L;
}

std::uint32_t MemberLayout::ring_member(std::uint32_t position, std::uint32_t channel) const noexcept {
  const std::uint32_t L = per_domain;
  const std::uint32_t n = position / L;
  const std::uint32_t entry = static_cast<std::uint32_t>((channel + L - n % L) % L);
  return rank_of(n, (entry + position % L) % L);
}

MemberLayout analyse_members(const network::ClusterSpec& cluster, std::span<const std::uint32_t> members) {
  MemberLayout layout;
  layout.members = static_cast<std::uint32_t>(members.size());
  layout.domains = layout.members;
  if (members.empty()) return layout;
  // Runs of members in the same domain; regular if every run has the same length and no domain
  // appears in two runs (domains seen so far are increasing, or checked below).
  std::uint32_t run = 0, first_run = 0, runs = 0;
  bool regular = true;
  bool increasing = true;
  std::uint32_t previous = domain_of(cluster, members[0]);
  for (const std::uint32_t device : members) {
    const std::uint32_t d = domain_of(cluster, device);
    if (d != previous) {
      if (d < previous) increasing = false;
      if (runs == 0) first_run = run;
      else if (run != first_run) regular = false;
      ++runs;
      run = 0;
      previous = d;
    }
    ++run;
  }
  if (runs == 0) first_run = run;
  else if (run != first_run) regular = false;
  ++runs;
  // Domains revisited out of order would make two runs of one domain; members in increasing domain
  // order (the common case: device ranges, strided groups) cannot. Anything else: one member per domain.
  layout.distinct_domains = runs;
  if (!increasing) {
    regular = false;
    std::vector<std::uint32_t> domains(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) domains[i] = domain_of(cluster, members[i]);
    std::sort(domains.begin(), domains.end());
    const auto distinct = static_cast<std::uint32_t>(std::unique(domains.begin(), domains.end()) - domains.begin());
    layout.distinct_domains = distinct;
  }
  if (regular && first_run > 1) {
    layout.per_domain = first_run;
    layout.domains = runs;
  }
  return layout;
}

}  // namespace rackscale::models::collectives
