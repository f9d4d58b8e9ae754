#pragma once
// Spearman's rank correlation of two lists of values (pairs by position): Pearson's correlation of their
// ranks, tied values taking the mean of the ranks they span. How well the estimate orders layouts as the
// simulation does.
#include <optional>
#include <vector>

namespace rackscale::search {

// Nothing for fewer than two pairs or when either list is constant; throws std::invalid_argument when
// the lists differ in length.
[[nodiscard]] std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace rackscale::search
