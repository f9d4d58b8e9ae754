#pragma once
// Progress in a batch log (standard error redirected to a file): one plain line per report,
//   progress: simulated 1.2 ms of 2 ms (60.0 %), wall 3.4 s, 1.23 M events/s, ETA 2.3 s
#include <ostream>

#include "io/progress/periodic_progress.hpp"

namespace rackscale::io {

class LineProgress final : public PeriodicProgress {
 public:
  LineProgress(std::ostream& out, double interval_seconds) : PeriodicProgress(interval_seconds), out_(out) {}
  void finish() override {}

 private:
  void show(const std::string& line) override;
  std::ostream& out_;
};

}  // namespace rackscale::io
