#pragma once
// Spare nodes and the nodes in repair (docs/goodput.md). A job of N nodes on a pool of N + spares runs
// while no more nodes are in repair than there are spares; a failed node goes to repair and is back
// after the repair time. With no spares the job waits for its own node.
#include <cstdint>
#include <vector>

#include "pdes/time.hpp"

namespace rackscale::models::goodput {

class SparePool {
 public:
  SparePool(std::uint32_t spares, pdes::SimTime repair) : spares_(spares), repair_(repair) {}

  // A node fails at `now`: when enough nodes are available for the job again (now, or a repair's end).
  [[nodiscard]] pdes::SimTime node_failed(pdes::SimTime now);

 private:
  std::uint32_t spares_;
  pdes::SimTime repair_;
  std::vector<pdes::SimTime> repairs_;  // return times of the nodes in repair, sorted
};

}  // namespace rackscale::models::goodput
