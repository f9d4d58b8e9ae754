#pragma once
// Progress displays chosen by name (the command line's --progress):
//   auto   tty when standard error is a terminal, lines otherwise
//   tty    one line updated in place, every 0.5 s by default
//   lines  a plain line every 10 s by default, for batch logs
//   off    nothing (pdes::NoProgress)
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "pdes/progress.hpp"

namespace rackscale::io {

[[nodiscard]] const std::vector<std::string>& progress_mode_names();

// Seconds between reports when none is given: twice a second on a terminal, where a person watches,
// and every ten seconds in a log, which should stay readable over a run of hours.
inline constexpr double kTerminalProgressInterval = 0.5;
inline constexpr double kLineProgressInterval = 10.0;

// `interval_seconds` <= 0 takes the mode's default. Throws std::invalid_argument for an unknown mode.
[[nodiscard]] std::shared_ptr<pdes::ProgressMonitor> make_progress(std::string_view mode, double interval_seconds,
                                                                  bool out_is_terminal, std::ostream& out);

}  // namespace rackscale::io
