#include "models/collectives/member_layouts.hpp"

#include <algorithm>

namespace rackscale::models::collectives {

const MemberLayout& MemberLayouts::of(const network::ClusterSpec& cluster, std::span<const std::uint32_t> members,
                                      std::uint64_t fingerprint) {
  const bool whole = members.size() <= kCompareWhole;
  const auto [first, last] = entries_.equal_range(fingerprint);
  for (auto it = first; it != last; ++it)
    if (it->second.size == members.size() &&
        (!whole || std::equal(members.begin(), members.end(), it->second.members.begin(), it->second.members.end())))
      return it->second.layout;
  Entry entry{members.size(), whole ? std::vector<std::uint32_t>(members.begin(), members.end())
                                    : std::vector<std::uint32_t>{},
              analyse_members(cluster, members)};
  return entries_.emplace(fingerprint, std::move(entry))->second.layout;
}

}  // namespace rackscale::models::collectives
