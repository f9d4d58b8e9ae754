#include "models/workload/role_trace.hpp"

namespace rackscale::models::workload {

std::optional<StridedGroup> strided_group_of(const std::vector<std::uint32_t>& members, std::uint32_t rank,
                                             std::uint32_t place) {
  if (members.empty() || place >= members.size() || members[place] != rank) return std::nullopt;
  StridedGroup g;
  g.size = static_cast<std::uint32_t>(members.size());
  if (members.size() > 1) {
    if (members[1] <= members[0]) return std::nullopt;
    g.stride = members[1] - members[0];
  }
  if (place_in(g, rank) != place) return std::nullopt;
  for (std::uint32_t i = 0; i < g.size; ++i)
    if (member_at(g, rank, i) != members[i]) return std::nullopt;
  return g;
}

}  // namespace rackscale::models::workload
