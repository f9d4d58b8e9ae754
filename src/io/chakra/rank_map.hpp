#pragma once
// The rank map of a role-deduplicated trace set (docs/traces.md, "One trace per role"): which role
// trace each traced rank replays. A text file, one line per run of consecutive ranks of one role:
//
//   # rackscale rank map: RANKS ROLE, RANKS a traced rank or a range FIRST-LAST
//   0-255 0
//   256-511 1
//
// '#' starts a comment; blank lines are ignored. Every traced rank from 0 has exactly one line.
#include <cstdint>
#include <filesystem>
#include <vector>

namespace rackscale::io {

// The role of each of the `ranks` traced ranks. `roles`: the role traces that exist (roles 0 to
// roles - 1). Throws ConfigError "FILE:LINE: ..." for a line that is not RANKS ROLE, a rank at or above
// `ranks`, a rank given twice (naming the earlier line), a role with no trace, and "FILE: ..." for a
// rank with no line or a file that cannot be read.
[[nodiscard]] std::vector<std::uint32_t> read_rank_map(const std::filesystem::path& file, std::uint32_t ranks,
                                                       std::uint32_t roles);

// Writes `role_of` (the role of traced rank r at r) as a rank map, one line per run of ranks; throws
// std::runtime_error naming the file when it cannot be written.
void write_rank_map(const std::filesystem::path& file, const std::vector<std::uint32_t>& role_of);

}  // namespace rackscale::io
