// What one window's exchange costs, by synchronizer and by the number of events each rank sends each
// peer per window, with nothing else in the loop: every rank ends WINDOWS windows back to back through
// the Synchronizer interface, and the window's events (if any) are pushed into and popped from a ladder
// queue as the engine would. Prints nanoseconds per window (the median of REPEAT runs, and the range).
//   scripts/mpirun.sh -np 2 build/bench/bench_window_exchange [--windows N] [--repeat R] [--sync NAME]...
// Figures and what they explain: docs/performance.md ("The window's exchange on the AMD Zen 5 VM").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <fmt/format.h>

#include "pdes/event_queue.hpp"
#include "pdes/sync.hpp"

namespace {
using rackscale::pdes::Event;

double window_nanoseconds(const boost::mpi::communicator& comm, const std::string& sync_name, int per_peer,
                          int windows) {
  auto sync = rackscale::pdes::make_synchronizer(sync_name, comm);
  auto queue = rackscale::pdes::make_event_queue("ladder");
  std::vector<std::vector<Event>> outboxes(static_cast<std::size_t>(comm.size()));
  rackscale::pdes::EngineStats stats;
  const std::string no_failure;
  std::uint64_t seq = 0;
  comm.barrier();
  const auto start = std::chrono::steady_clock::now();
  rackscale::pdes::SimTime time = 0;
  for (int w = 0; w < windows; ++w) {
    time += 1'000'000;  // 1 us of simulated time per window
    for (int peer = 0; peer < comm.size(); ++peer) {
      if (peer == comm.rank()) continue;
      for (int k = 0; k < per_peer; ++k) {
        Event event{};
        event.time = time;
        event.dst = static_cast<rackscale::pdes::LpId>(peer);
        event.src = static_cast<rackscale::pdes::LpId>(comm.rank());
        event.seq = seq++;
        outboxes[static_cast<std::size_t>(peer)].push_back(event);
      }
    }
    // prepare_until 0: nothing to sort ahead while waiting, so only the exchange is timed.
    (void)sync->end_window(outboxes, time, 0, false, no_failure, *queue, stats);
    Event popped;
    while (queue->pop_before(rackscale::pdes::kNever, popped)) {
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seconds * 1e9 / windows;
}
}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment env(argc, argv);
  boost::mpi::communicator comm;
  int windows = 200'000;
  int repeat = 5;
  std::vector<std::string> syncs;
  const auto usage = [&] {
    if (comm.rank() == 0)
      std::fprintf(stderr, "usage: bench_window_exchange [--windows N] [--repeat R] [--sync NAME]...\n");
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    try {
      if (i + 1 < argc && arg == "--windows") {
        windows = std::stoi(argv[++i]);
      } else if (i + 1 < argc && arg == "--repeat") {
        repeat = std::stoi(argv[++i]);
      } else if (i + 1 < argc && arg == "--sync") {
        syncs.emplace_back(argv[++i]);
      } else {
        return usage();
      }
    } catch (const std::logic_error&) {  // std::stoi: not a number, or out of range
      return usage();
    }
    if (windows < 1 || repeat < 1) return usage();
  }
  if (comm.size() < 2) {
    if (comm.rank() == 0) std::fprintf(stderr, "bench_window_exchange: run it on 2 or more ranks\n");
    return 2;
  }
  if (syncs.empty()) syncs = {"shared_memory", "dense", "sparse"};
  for (const std::string& name : syncs) {
    try {
      (void)rackscale::pdes::make_synchronizer(name, comm);  // an unknown name stops here, on every rank
    } catch (const std::invalid_argument& e) {
      if (comm.rank() == 0) std::fprintf(stderr, "bench_window_exchange: %s\n", e.what());
      return 2;
    }
  }
  if (comm.rank() == 0)
    std::printf("%d ranks, %d windows per run, median of %d runs (range)\n%-14s %16s %24s\n", comm.size(), windows,
                repeat, "synchronizer", "events per peer", "ns per window");
  for (const std::string& name : syncs) {
    for (const int per_peer : {0, 1, 4, 16}) {
      std::vector<double> runs;
      for (int r = 0; r < repeat; ++r) runs.push_back(window_nanoseconds(comm, name, per_peer, windows));
      std::sort(runs.begin(), runs.end());
      if (comm.rank() == 0)
        std::printf("%-14s %16d %24s\n", name.c_str(), per_peer,
                    fmt::format("{:.0f} ({:.0f}-{:.0f})", runs[runs.size() / 2], runs.front(), runs.back()).c_str());
    }
  }
  return 0;
}
