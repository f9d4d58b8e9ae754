#include "io/progress/periodic_progress.hpp"

#include "io/progress/progress_line.hpp"

namespace rackscale::io {

void PeriodicProgress::report(const pdes::ProgressFigures& figures) {
  const double seconds = figures.wall_seconds - last_wall_;
  const double rate = seconds > 0 ? static_cast<double>(figures.events - last_events_) / seconds : 0.0;
  last_wall_ = figures.wall_seconds;
  last_events_ = figures.events;
  show(progress_line(figures, rate));
}

}  // namespace rackscale::io
