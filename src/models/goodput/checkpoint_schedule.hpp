#pragma once
// Where a training job stands at a given time, from when it last (re)started: the arithmetic of
// checkpointed segments, so that the run-level model needs no event per checkpoint (docs/goodput.md).
//
// From a (re)start at t0 with work w0 saved, the job runs segments of `interval` of work, the last one
// shorter if the work left is not a multiple. After segment j's work ends (at e_j), the job stalls for
// `stall` and the checkpoint is durable `write` after e_j: synchronous, stall = write; asynchronous, the
// stall is the part of the write not hidden behind training and the write ends during the next
// segment (write <= interval + stall: a write never overlaps the next one). The run is done when the
// checkpoint of its last segment is durable.
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::goodput {

struct CheckpointSchedule {
  pdes::SimTime interval = 0;  // work per segment (> 0)
  pdes::SimTime stall = 0;     // the job's pause per checkpoint
  pdes::SimTime write = 0;     // until the checkpoint is durable, from the end of its segment's work

  // Wall time from a (re)start to the end of the run with `left` (> 0) work to do.
  [[nodiscard]] pdes::SimTime time_to_finish(pdes::SimTime left) const noexcept;
  // Checkpoints durable `since` a (re)start with `left` work to do, not counting the last (durable only
  // at the end of the run).
  [[nodiscard]] std::uint64_t durable_checkpoints(pdes::SimTime since, pdes::SimTime left) const noexcept;
  // The wall time of `count` full segments with their stalls.
  [[nodiscard]] pdes::SimTime segments_time(std::uint64_t count) const noexcept { return count * (interval + stall); }
};

// The schedule of a checkpoint of `write` time, with the job stalled for all of it (synchronous) or for
// (1 - overlap) of it (asynchronous; raised to write - interval if the write would outlast the next
// segment).
[[nodiscard]] CheckpointSchedule make_schedule(pdes::SimTime interval, pdes::SimTime write, bool asynchronous,
                                               double overlap);

}  // namespace rackscale::models::goodput
