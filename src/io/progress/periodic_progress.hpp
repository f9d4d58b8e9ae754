#pragma once
// The part the progress displays share: a report is due once `interval` seconds have passed since the
// previous one, and the rate shown is the events handled since then over the time since then.
#include <cstdint>
#include <string>

#include "pdes/progress.hpp"

namespace rackscale::io {

class PeriodicProgress : public pdes::ProgressMonitor {
 public:
  explicit PeriodicProgress(double interval_seconds) : interval_(interval_seconds) {}
  [[nodiscard]] bool due(double wall_seconds) final { return wall_seconds - last_wall_ >= interval_; }
  void report(const pdes::ProgressFigures& figures) final;

 protected:
  // Shows one report (io/progress/progress_line.hpp has its text).
  virtual void show(const std::string& line) = 0;

 private:
  double interval_;
  double last_wall_ = 0;
  std::uint64_t last_events_ = 0;
};

}  // namespace rackscale::io
