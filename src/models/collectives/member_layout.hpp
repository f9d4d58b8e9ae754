#pragma once
// Where a call's members sit: how many scale-up domains they span and how many members each domain
// holds. Algorithms use it to keep traffic on fast links: rings that leave each domain through a
// different device (hence NIC) per channel, trees over domains with chains inside them, hierarchical
// all-reduce.
//
// The layout is *regular* when the members come domain by domain (members of a domain contiguous in
// rank order) and every domain holds the same number L of them; otherwise every member is treated as
// its own domain (L = 1), which is always correct, only less topology-aware. Every member computes the
// same layout from the same member list, so they agree on every ring and tree.
#include <cstdint>
#include <span>

#include "models/network/cluster_spec.hpp"

namespace rackscale::models::collectives {

// The scale-up domain of a device: devices that talk over the scale-up fabric rather than NICs.
[[nodiscard]] std::uint32_t domain_of(const network::ClusterSpec& cluster, std::uint32_t device) noexcept;

struct MemberLayout {
  std::uint32_t members = 0;      // p
  std::uint32_t per_domain = 1;   // L: members per domain
  std::uint32_t domains = 0;      // N = p / L
  std::uint32_t distinct_domains = 0;  // domains spanned, even when irregular (for the cost model)

  // Member rank <-> (domain ordinal, local index) when regular; (rank, 0) otherwise.
  [[nodiscard]] std::uint32_t domain_index(std::uint32_t rank) const noexcept { return rank / per_domain; }
  [[nodiscard]] std::uint32_t local_index(std::uint32_t rank) const noexcept { return rank % per_domain; }
  [[nodiscard]] std::uint32_t rank_of(std::uint32_t domain, std::uint32_t local) const noexcept {
    return domain * per_domain + local;
  }

  // Rings. Channel c visits the domains in order; inside domain n it starts at local index
  // (c - n) mod L and visits the others in local order, so it leaves domain n from local index
  // (c - n - 1) mod L and enters domain n + 1 at that same local index: ring hops between domains stay
  // on one rail (NIC i to NIC i), and different channels leave each domain through different devices.
  [[nodiscard]] std::uint32_t ring_position(std::uint32_t rank, std::uint32_t channel) const noexcept;
  [[nodiscard]] std::uint32_t ring_member(std::uint32_t position, std::uint32_t channel) const noexcept;
};

// O(p): scans the member list once.
[[nodiscard]] MemberLayout analyse_members(const network::ClusterSpec& cluster, std::span<const std::uint32_t> members);

}  // namespace rackscale::models::collectives
