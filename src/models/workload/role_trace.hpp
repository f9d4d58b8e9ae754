#pragma once
// Role traces (docs/traces.md, "One trace per role"): a trace that many traced ranks replay, each as
// itself. Their programs are the same; only who their process groups and point-to-point peers are
// depends on the rank, so a role trace names them relative to the rank that replays it:
//
//   a strided process group (GlobalMetadata attribute "pg_stride:NAME" = [stride, size]): the group of
//     traced rank r has the `size` members b + stride x i (i = 0 .. size - 1, in group rank order), with
//     b = r - p x stride and p = (r / stride) mod size, r's place in it. Every group of the training
//     layout is one (training_layout.hpp: device = tp + T (cp + C (dp + D pp)));
//   a peer relative to a group (node attributes comm_peer_pg = NAME, comm_peer_step = k): the member k
//     places after r in r's group NAME, cyclically (a pipeline neighbour is step +1 or -1 in the
//     pipeline group, a context-ring neighbour the same in the context group).
//
// A role trace also holds the absolute fields (pg_ranks, comm_dst / comm_src) of the first rank of its
// role, so that it is an ordinary trace of that rank for tools that know nothing of roles.
#include <cstdint>
#include <optional>
#include <vector>

namespace rackscale::models::workload {

struct StridedGroup {
  std::uint32_t stride = 1;
  std::uint32_t size = 1;

  friend bool operator==(const StridedGroup&, const StridedGroup&) = default;
};

// r's place in its group.
[[nodiscard]] constexpr std::uint32_t place_in(const StridedGroup& g, std::uint32_t rank) noexcept {
  return (rank / g.stride) % g.size;
}
// The member at `place` of the group of `rank`.
[[nodiscard]] constexpr std::uint64_t member_at(const StridedGroup& g, std::uint32_t rank, std::uint32_t place) noexcept {
  return std::uint64_t{rank} - std::uint64_t{place_in(g, rank)} * g.stride + std::uint64_t{place} * g.stride;
}
// The member `step` places after `rank` in its group, cyclically.
[[nodiscard]] constexpr std::uint64_t member_after(const StridedGroup& g, std::uint32_t rank, std::int64_t step) noexcept {
  const std::int64_t size = g.size;
  const std::int64_t place = ((static_cast<std::int64_t>(place_in(g, rank)) + step) % size + size) % size;
  return member_at(g, rank, static_cast<std::uint32_t>(place));
}

// The strided group whose members for `rank` are `members` (in group rank order) with `rank` at
// `place`, if there is one.
[[nodiscard]] std::optional<StridedGroup> strided_group_of(const std::vector<std::uint32_t>& members, std::uint32_t rank,
                                                           std::uint32_t place);

}  // namespace rackscale::models::workload
