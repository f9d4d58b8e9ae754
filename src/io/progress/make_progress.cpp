#include "io/progress/make_progress.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/progress/line_progress.hpp"
#include "io/progress/terminal_progress.hpp"

namespace rackscale::io {

const std::vector<std::string>& progress_mode_names() {
  static const std::vector<std::string> names{"auto", "tty", "lines", "off"};
  return names;
}

std::shared_ptr<pdes::ProgressMonitor> make_progress(std::string_view mode, double interval_seconds,
                                                     bool out_is_terminal, std::ostream& out) {
  if (mode == "auto") mode = out_is_terminal ? "tty" : "lines";
  const auto interval = [&](double fallback) { return interval_seconds > 0 ? interval_seconds : fallback; };
  if (mode == "tty") return std::make_shared<TerminalProgress>(out, interval(kTerminalProgressInterval));
  if (mode == "lines") return std::make_shared<LineProgress>(out, interval(kLineProgressInterval));
  if (mode == "off") return std::make_shared<pdes::NoProgress>();
  throw std::invalid_argument(
      fmt::format("--progress: expected one of {}, found '{}'", fmt::join(progress_mode_names(), ", "), mode));
}

}  // namespace rackscale::io
