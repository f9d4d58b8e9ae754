#include "pdes/statistics.hpp"

#include <algorithm>

#include <sys/resource.h>

#include <boost/mpi/collectives/gather.hpp>
#include <boost/serialization/vector.hpp>

namespace rackscale::pdes {

std::uint64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
#if defined(__APPLE__)
  return static_cast<std::uint64_t>(usage.ru_maxrss);  // macOS reports bytes
#else
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux and the BSDs report KiB
#endif
}

EngineTotals gather_stats(const boost::mpi::communicator& comm, const EngineStats& mine) {
  EngineTotals totals;
  boost::mpi::gather(comm, mine, totals.per_rank, 0);
  if (comm.rank() != 0) return totals;
  EngineStats& t = totals.total;
  t.rank = -1;
  t.lookahead = mine.lookahead;
  t.final_time = mine.final_time;
  t.windows = mine.windows;
  for (const EngineStats& s : totals.per_rank) {
    t.lps += s.lps;
    t.events_processed += s.events_processed;
    t.remote_sent += s.remote_sent;
    t.remote_received += s.remote_received;
    t.process_seconds = std::max(t.process_seconds, s.process_seconds);
    t.sync_seconds = std::max(t.sync_seconds, s.sync_seconds);
    t.wall_seconds = std::max(t.wall_seconds, s.wall_seconds);
    t.peak_memory_bytes += s.peak_memory_bytes;
  }
  return totals;
}

}  // namespace rackscale::pdes
