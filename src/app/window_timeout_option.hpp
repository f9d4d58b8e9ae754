#pragma once
// --window-timeout DURATION, for the subcommands that run the engine (run, phold): how long a rank waits
// for the others at a window's exchange before it aborts the job, naming the rank it waits for
// (pdes/window_watchdog.hpp, docs/reliability.md "Watchdog"). DURATION is a number with s, min or h
// ("90s", "10min", "1.5h"), or off (also 0): no limit. A bad value is a command-line error naming the
// option (exit 2).
#include <string_view>

#include <CLI/CLI.hpp>

namespace rackscale::app {

// Seconds (0: off). Throws std::invalid_argument with what was expected and found.
[[nodiscard]] double parse_window_timeout(std::string_view text);

// Adds the option to `command`; it stores its value in `seconds`, which holds the default until then.
void add_window_timeout_option(CLI::App& command, double& seconds);

}  // namespace rackscale::app
