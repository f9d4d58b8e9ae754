#pragma once
// Diagnostics (warnings, setup steps, setup timings) go to standard error through spdlog's default
// logger, each line led by the rank that wrote it:
//   [rank 3] warning: workload: stage 0 of 4 needs 91.2 GiB ...
// Results (summaries, --json) stay on standard output. Errors that end a run are not log messages:
// they keep their fixed text (tests and scripts match it) and are printed whatever the level.
#include <string>
#include <string_view>
#include <vector>

namespace rackscale::app {

// The --log-level values, least severe first: trace, debug, info, warn, error, off.
[[nodiscard]] const std::vector<std::string>& log_level_names();

// Sets spdlog's default logger to standard error at `level` (one of log_level_names()) on a rank that
// logs, and to off on one that does not, so a message every rank would repeat appears once.
void configure_logging(std::string_view level, bool this_rank_logs, int rank);

}  // namespace rackscale::app
