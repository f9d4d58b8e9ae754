#include "models/goodput/spare_pool.hpp"

#include <algorithm>

namespace rackscale::models::goodput {

pdes::SimTime SparePool::node_failed(pdes::SimTime now) {
  repairs_.erase(repairs_.begin(), std::upper_bound(repairs_.begin(), repairs_.end(), now));
  const pdes::SimTime back = pdes::saturating_add(now, repair_);
  repairs_.insert(std::upper_bound(repairs_.begin(), repairs_.end(), back), back);
  if (repairs_.size() <= spares_) return now;
  // Wait until only `spares` nodes are still in repair.
  return repairs_[repairs_.size() - spares_ - 1];
}

}  // namespace rackscale::models::goodput
