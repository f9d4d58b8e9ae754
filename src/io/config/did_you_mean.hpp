#pragma once
// "Did you mean ...?" for misspelt keys, enum values and preset names: the closest candidate by edit
// distance, if it is close enough to be a plausible typo.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rackscale::io {

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps
// ("ndoes" -> "nodes" is 1), the typos people make.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word`, if within max(2, |word| / 3) edits (ties go to the earlier one);
// otherwise the first candidate that `word` (3+ characters) is a prefix of.
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word,
                                                       const std::vector<std::string>& candidates);

// "a, b, c": candidates joined for messages.
[[nodiscard]] std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace rackscale::io
