#pragma once
// The text of one progress report, shared by the terminal and the log-line displays:
//   simulated 1.2 ms of 2 ms (60.0 %), wall 3.4 s, 1.23 M events/s, ETA 2.3 s
#include <string>

#include "pdes/progress.hpp"

namespace rackscale::io {

// `events_per_second` is the rate the display measured (since its previous report). The ETA is
// wall × (1 − f) / f for the fraction f done (pdes::ProgressFigures::fraction_done), "unknown" when
// nothing tells f.
[[nodiscard]] std::string progress_line(const pdes::ProgressFigures& figures, double events_per_second);

// A wall-clock duration for people: "0.4 s", "12 s", "3 min 20 s", "2 h 05 min".
[[nodiscard]] std::string format_duration(double seconds);

}  // namespace rackscale::io
