#include "io/partition_summary.hpp"

namespace rackscale::io {

nlohmann::ordered_json partition_json(const models::network::PartitionReport& p) {
  return {{"method", p.method},
          {"ranks", p.ranks},
          {"imbalance", p.imbalance},
          {"cross_rank_cables", p.cross_rank_cables},
          {"cut_bandwidth_Bps", p.cut_bandwidth},
          {"lookahead_ps", p.lookahead == pdes::kNever ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.lookahead)}};
}

}  // namespace rackscale::io
