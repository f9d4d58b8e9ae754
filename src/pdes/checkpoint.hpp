#pragma once
// What the engine needs to stop at a window boundary and to save and restore a run there.
//
// A checkpoint of one rank is the engine's own state (simulated time, statistics, every pending event,
// every LP's sequence number and random stream) followed by each LP's model state (LogicalProcess::
// save) and the model's per-rank state that lives outside LPs (CheckpointHooks::save_model). The
// engine turns it into bytes; writing them to a file, and checking a file before restoring from it,
// is checkpoint_file.hpp's.
#include <cstdint>
#include <functional>
#include <string>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

#include "pdes/time.hpp"

namespace rackscale::pdes {

using CheckpointWriter = boost::archive::binary_oarchive;
using CheckpointReader = boost::archive::binary_iarchive;

struct CheckpointHooks {
  // Stop (with a checkpoint if `write` is set) once this many windows have run in total, counting
  // those before a restart; 0: never. A test hook (docs/cli.md). On one rank, where the whole run is
  // one window, a window is cut every kEventsPerSoloWindow events while this is set.
  std::uint64_t stop_after_windows = 0;
  // Wall-clock seconds between checkpoints (rank 0's clock decides); 0: only when stopping.
  double every_seconds = 0;
  // Collective, on every rank at a boundary all ranks agreed on: stores this rank's state, from which
  // the run resumes at simulated time `resume_at` (the earliest pending event on any rank) after
  // `windows` windows. Null: no checkpoint is written (a stop signal still stops the run).
  std::function<void(const std::string& rank_state, SimTime resume_at, std::uint64_t windows)> write;
  // The model's state of this rank outside its LPs (shared counters, histograms). Null: none.
  std::function<void(CheckpointWriter&)> save_model;
  std::function<void(CheckpointReader&)> load_model;
};

// On one rank, with a stop or checkpoint request possible, the run is cut into windows of this many
// events (the same slices at which progress is polled), so it can stop between them.
inline constexpr std::uint64_t kEventsPerSoloWindow = 1024;

// How a run ended (EngineStats::ended).
enum class RunEnd : std::uint8_t { finished, stopped_by_signal, stopped_after_windows };

}  // namespace rackscale::pdes
