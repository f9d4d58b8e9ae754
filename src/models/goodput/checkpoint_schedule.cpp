#include "models/goodput/checkpoint_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace rackscale::models::goodput {

pdes::SimTime CheckpointSchedule::time_to_finish(pdes::SimTime left) const noexcept {
  const std::uint64_t full = left / interval;
  const pdes::SimTime rest = left % interval;
  if (rest == 0) return full * interval + (full - 1) * stall + write;
  return full * (interval + stall) + rest + write;
}

std::uint64_t CheckpointSchedule::durable_checkpoints(pdes::SimTime since, pdes::SimTime left) const noexcept {
  // Checkpoint j (1-based) is durable at j (interval + stall) - stall + write after the (re)start.
  if (since + stall < write) return 0;
  const std::uint64_t count = (since + stall - write) / (interval + stall);
  // Full segments before the last one: the last checkpoint ends the run.
  const std::uint64_t full = left / interval;
  const std::uint64_t before_last = left % interval == 0 ? full - 1 : full;
  return std::min(count, before_last);
}

CheckpointSchedule make_schedule(pdes::SimTime interval, pdes::SimTime write, bool asynchronous, double overlap) {
  CheckpointSchedule s;
  s.interval = interval;
  s.write = write;
  if (!asynchronous) {
    s.stall = write;
  } else {
    s.stall = static_cast<pdes::SimTime>(std::llround(static_cast<double>(write) * (1.0 - overlap)));
    if (write > interval) s.stall = std::max(s.stall, write - interval);
  }
  return s;
}

}  // namespace rackscale::models::goodput
