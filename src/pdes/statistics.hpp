#pragma once
// Engine statistics: what one rank did during a run, and their reduction to totals on rank 0.
#include <cstdint>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/time.hpp"

namespace rackscale::pdes {

struct EngineStats {
  int rank = 0;
  std::uint64_t lps = 0;                // LPs owned by this rank
  std::uint64_t events_processed = 0;   // events handled by this rank's LPs
  std::uint64_t remote_sent = 0;        // events sent to LPs on other ranks
  std::uint64_t remote_received = 0;    // events received from other ranks
  std::uint64_t windows = 0;            // synchronization windows processed
  SimTime lookahead = kNever;           // window length bound (kNever: no cross-rank link)
  SimTime final_time = 0;               // latest event time handled on any rank (same on all ranks)
  double process_seconds = 0;           // wall time handling events
  double sync_seconds = 0;              // wall time in window exchanges (includes waiting for other ranks)
  double wall_seconds = 0;              // wall time of run(): LP init, windows and LP finish
  std::uint64_t peak_memory_bytes = 0;  // the process's peak resident set size at the end of run()
  std::uint64_t checkpoints = 0;        // checkpoints written by this run (not counting earlier runs)
  double checkpoint_seconds = 0;        // wall time spent saving them
  int stop_signal = 0;                  // the signal that stopped the run early (0: none)
  bool stopped = false;                 // the run stopped at a window boundary before its end

  [[nodiscard]] double events_per_second() const {
    return wall_seconds > 0 ? static_cast<double>(events_processed) / wall_seconds : 0.0;
  }

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & rank & lps & events_processed & remote_sent & remote_received & windows & lookahead & final_time &
        process_seconds & sync_seconds & wall_seconds & peak_memory_bytes & checkpoints & checkpoint_seconds &
        stop_signal & stopped;
  }
};

// All ranks' statistics and their totals. Counts are summed over ranks; times are the slowest rank's,
// so total events/s is the whole run's rate; windows, lookahead and final time are the same everywhere.
struct EngineTotals {
  std::vector<EngineStats> per_rank;
  EngineStats total;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & per_rank & total;  // the archive's includer brings boost/serialization/vector.hpp
  }
};

// Peak resident set size of this process so far (getrusage), in bytes.
[[nodiscard]] std::uint64_t peak_memory_bytes();

// Collective. The result is filled on rank 0 only (other ranks get empty totals). The total's peak
// memory is the sum over ranks (each rank is a process).
[[nodiscard]] EngineTotals gather_stats(const boost::mpi::communicator& comm, const EngineStats& mine);

}  // namespace rackscale::pdes
