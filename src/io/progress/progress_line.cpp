#include "io/progress/progress_line.hpp"

#include <cmath>

#include <fmt/format.h>

#include "io/number_format.hpp"

namespace rackscale::io {

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return "unknown";
  if (seconds < 10) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<long long>(std::llround(seconds));
  if (whole < 60) return fmt::format("{} s", whole);
  if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
  return fmt::format("{} h {:02} min", whole / 3600, (whole % 3600) / 60);
}

std::string progress_line(const pdes::ProgressFigures& f, double events_per_second) {
  std::string line = "simulated " + format_picoseconds(f.simulated);
  const double done = f.fraction_done();
  if (f.work.total > 0)
    line += fmt::format(", {:.1f} % of the work", 100 * done);
  else if (done >= 0)
    line += fmt::format(" of {} ({:.1f} %)", format_picoseconds(f.end), 100 * done);
  line += fmt::format(", wall {}, {} events/s, ETA ", format_duration(f.wall_seconds), with_prefix(events_per_second, Prefixes::counts, ""));
  line += done > 0 ? format_duration(f.wall_seconds * (1 - done) / done) : std::string("unknown");
  return line;
}

}  // namespace rackscale::io
