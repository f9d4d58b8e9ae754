#pragma once
// Progress of a run while it runs: the engine's side. Rank 0 decides by its own clock when a report is
// due; the window synchronizer carries that decision to every rank in the window exchange it does
// anyway, so all ranks agree on the window after which they sum their figures to rank 0 (one small
// reduction per report, none in between). A one-rank run, whose single window is the whole run, asks
// every few thousand events instead.
//
// How the figures are shown is not the engine's business: ProgressMonitor is the interface (io/progress
// has the displays), NoProgress the do-nothing monitor every engine starts with.
#include <cstdint>
#include <functional>

#include "pdes/time.hpp"

namespace rackscale::pdes {

// Work a model has done out of its total, in whatever unit it counts (ops, iterations, messages).
// Summed over ranks, so each rank reports its own LPs' share.
struct WorkDone {
  std::uint64_t done = 0;
  std::uint64_t total = 0;  // 0: the model does not know how far it is

  WorkDone& operator+=(const WorkDone& other) noexcept {
    done += other.done;
    total += other.total;
    return *this;
  }
};

// A model's report of its work on this rank; the engine calls it only when a progress report is due.
using WorkGauge = std::function<WorkDone()>;

struct ProgressFigures {
  SimTime simulated = 0;      // every event before this time has been handled, on every rank
  SimTime end = kNever;       // the run's end time (kNever: the run ends when the events do)
  std::uint64_t events = 0;   // events handled so far, all ranks
  WorkDone work;              // the model's gauge summed over ranks ({0, 0}: none)
  double wall_seconds = 0;    // since the engine's run() started, by rank 0's clock

  // The fraction of the run done, in [0, 1], or a negative number when nothing tells: the model's gauge
  // if it has one, else simulated time against a finite end.
  [[nodiscard]] double fraction_done() const noexcept;
};

class ProgressMonitor {
 public:
  virtual ~ProgressMonitor() = default;
  ProgressMonitor() = default;
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;

  // Asked on rank 0 only, at the end of every window (and every few thousand events on one rank):
  // should the ranks report now? `wall_seconds` is the time since run() started.
  [[nodiscard]] virtual bool due(double wall_seconds) = 0;
  // Rank 0, after every rank agreed and the figures were summed.
  virtual void report(const ProgressFigures& figures) = 0;
  // Rank 0, once the last window is done (before the engine's statistics are gathered).
  virtual void finish() = 0;
};

// Never due, so the engine never reduces progress figures and nothing is shown.
class NoProgress final : public ProgressMonitor {
 public:
  [[nodiscard]] bool due(double /*wall_seconds*/) override { return false; }
  void report(const ProgressFigures& /*figures*/) override {}
  void finish() override {}
};

}  // namespace rackscale::pdes
