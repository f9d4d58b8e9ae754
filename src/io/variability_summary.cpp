#include "io/variability_summary.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "models/network/cabling.hpp"

namespace rackscale::io {

namespace wl = models::workload;

namespace {
std::string link_text(const wl::LinkLoad& l) {
  std::string out = fmt::format("port {} ({} link, node {} -> {}, {}", l.port,
                                models::network::link_class_label(l.link_class), l.from, l.to,
                                format_bandwidth(l.bandwidth));
  if (l.fraction == 0) out += ", down, its routes moved to others";
  else if (l.fraction != 1.0) out += fmt::format(", {} of its rate", format_percent(l.fraction));
  return out + fmt::format("): busy {}", format_picoseconds(l.busy));
}

void add_link(Figures& f, const std::string& prefix, const wl::LinkLoad& l) {
  f.push_back({prefix + "_port", std::uint64_t{l.port}});
  f.push_back({prefix + "_from_node", std::uint64_t{l.from}});
  f.push_back({prefix + "_to_node", std::uint64_t{l.to}});
  f.push_back({prefix + "_bandwidth_Bps", l.bandwidth});
  f.push_back({prefix + "_fraction", l.fraction});
  f.push_back({prefix + "_busy_ps", std::uint64_t{l.busy}});
}
}  // namespace

Figures variability_figures(const wl::VariabilityReport& r) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Figures f{{"perfect_iteration_time_ps", r.perfect_iteration ? std::uint64_t{*r.perfect_iteration} : std::uint64_t{0}},
            {"slowdown", r.perfect_iteration ? r.slowdown : nan},
            {"speed_factor_min", r.factor_min},
            {"speed_factor_max", r.factor_max},
            {"critical_device", std::uint64_t{r.critical_device}},
            {"critical_device_wait_ps", std::uint64_t{r.critical_wait}},
            {"critical_device_factor", r.critical_factor},
            {"slowest_compute_device", std::uint64_t{r.slowest_device}},
            {"slowest_compute_ps", std::uint64_t{r.slowest_compute}},
            {"slowest_compute_factor", r.slowest_factor},
            {"last_device", std::uint64_t{r.last_device}},
            {"last_device_factor", r.last_factor}};
  add_link(f, "busiest_link", r.busiest);
  for (std::size_t i = 0; i < r.degraded.size(); ++i) add_link(f, fmt::format("degraded_link_{}", i), r.degraded[i]);
  return f;
}

std::string variability_summary(const wl::VariabilityReport& r, pdes::SimTime iteration_time) {
  std::string out = "variability inside the iteration:\n";
  if (r.perfect_iteration)
    out += fmt::format("  iteration {} against {} without variability: {} ({} slower)\n",
                       format_picoseconds(iteration_time), format_picoseconds(*r.perfect_iteration),
                       fmt::format("x{:.4f}", r.slowdown), format_percent(r.slowdown - 1));
  else
    out += "  no perfect baseline simulated (workload.variability.perfect_baseline: false)\n";
  out += fmt::format("  speed factors drawn: {:.4f} to {:.4f}\n", r.factor_min, r.factor_max);
  out += fmt::format("  critical device (waited least, {} over the run; the others waited for it): device {} "
                     "(factor {:.4f})\n",
                     format_picoseconds(r.critical_wait), r.critical_device, r.critical_factor);
  out += fmt::format("  slowest compute: device {} (factor {:.4f}), {} of compute over the run\n", r.slowest_device,
                     r.slowest_factor, format_picoseconds(r.slowest_compute));
  out += fmt::format("  last to finish its last iteration (lowest id among equals): device {} (factor {:.4f})\n",
                     r.last_device,
                     r.last_factor);
  out += "  busiest link: " + link_text(r.busiest) + "\n";
  for (const wl::LinkLoad& l : r.degraded) out += "  degraded link: " + link_text(l) + "\n";
  return out;
}

}  // namespace rackscale::io
