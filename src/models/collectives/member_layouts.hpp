#pragma once
// The layouts (member_layout.hpp) of the member lists one rank's devices call with, worked out once per
// list: analysing a list is O(p), and every member of a call analysing it again made a call of p members
// cost O(p^2) on a rank that holds them all (4,096 members: 7 s of a 1 GiB ring all-reduce's 7.2 s,
// docs/performance.md). Shared by the collective engines of one rank's devices; results do not depend on
// it (a layout is a function of the list).
//
// Lists are recognized as the engines' call memos recognize them: up to kCompareWhole members by the
// list itself, larger ones by their size and 64-bit fingerprint (members_fingerprint), since a rank's
// devices call a few thousand distinct groups at most.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "models/collectives/member_layout.hpp"

namespace rackscale::models::collectives {

class MemberLayouts {
 public:
  static constexpr std::size_t kCompareWhole = 64;

  // The layout of `members` on `cluster` (the same cluster for every call), whose fingerprint is
  // `fingerprint`. The reference stays valid for the cache's life.
  [[nodiscard]] const MemberLayout& of(const network::ClusterSpec& cluster, std::span<const std::uint32_t> members,
                                       std::uint64_t fingerprint);

 private:
  struct Entry {
    std::size_t size = 0;
    std::vector<std::uint32_t> members;  // kept for lists of up to kCompareWhole
    MemberLayout layout;
  };
  std::unordered_multimap<std::uint64_t, Entry> entries_;
};

}  // namespace rackscale::models::collectives
