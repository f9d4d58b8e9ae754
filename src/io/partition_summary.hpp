#pragma once
// How a run's rack placement is shown to scripts: the `partition` object of `rackscale run --json`
// (traffic, training and collective runs alike).
#include <nlohmann/json.hpp>

#include "models/network/partition_report.hpp"

namespace rackscale::io {

// {"method", "ranks", "imbalance", "cross_rank_cables", "cut_bandwidth_Bps", "lookahead_ps"}; the
// lookahead is null when nothing crosses ranks (one rank).
[[nodiscard]] nlohmann::ordered_json partition_json(const models::network::PartitionReport& partition);

}  // namespace rackscale::io
