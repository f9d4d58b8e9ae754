#pragma once
// Power of a cluster component as a function of its activity, the linear model used by most
// datacenter power studies:
//
//   P = idle + (active - idle) x utilization,        utilization in [0, 1]
//
// with the figures of models/hardware.hpp: accelerators idle_watts -> tdp_watts (utilization = the
// compute units' busy fraction), NICs idle_watts -> active_watts (utilization = bytes / (bandwidth x
// time)); switches idle plus a power per port at that port's utilization (SwitchPower). Power levels are held as integer milliwatts so that, with integer picosecond
// time, every interval's energy is an exact integer (models/power/energy.hpp). docs/tco.md states the
// model, its defaults and what is an assumption.
#include <cstdint>

#include "models/hardware.hpp"
#include "models/power/energy.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::power {

// Watts -> milliwatts, rounded to the nearest. Presets are given to 0.1 W at most, so this loses
// nothing for them. Throws std::invalid_argument on a negative, NaN or absurd (> 1 TW) value.
[[nodiscard]] std::uint64_t to_milliwatts(double watts);

// A component's two power levels. active >= idle; both may be 0 (a preset without power figures).
struct PowerLevels {
  std::uint64_t idle_mw = 0;
  std::uint64_t active_mw = 0;
  [[nodiscard]] double idle_watts() const noexcept { return static_cast<double>(idle_mw) * 1e-3; }
  [[nodiscard]] double active_watts() const noexcept { return static_cast<double>(active_mw) * 1e-3; }
  // The power swing that activity adds, (active - idle).
  [[nodiscard]] std::uint64_t dynamic_mw() const noexcept { return active_mw - idle_mw; }
};

// Throws std::invalid_argument when active < idle or either is invalid (to_milliwatts).
[[nodiscard]] PowerLevels make_levels(double idle_watts, double active_watts);

[[nodiscard]] PowerLevels accelerator_levels(const AcceleratorSpec& accelerator);  // idle -> TDP
[[nodiscard]] PowerLevels nic_levels(const NicSpec& nic);

// A switch's power by load (docs/tco.md, "Switch power by load"): idle, with every port linked, plus
// each port's own power at its utilization, the mean of its two directions' busy fractions:
//
//   P = idle + port x sum over the linked ports of u_port
//
// Integer milliwatts, so that its energy over integer picoseconds is exact.
struct SwitchPower {
  std::uint64_t idle_mw = 0;
  std::uint64_t port_mw = 0;  // one port at full rate both ways, over idle
  std::uint32_t radix = 0;
  [[nodiscard]] double idle_watts() const noexcept { return static_cast<double>(idle_mw) * 1e-3; }
  // Every port at full rate: the most it draws, for sizing the facility.
  [[nodiscard]] double active_watts() const noexcept {
    return static_cast<double>(idle_mw + port_mw * radix) * 1e-3;
  }
};
// Throws std::invalid_argument on invalid figures or a switch without ports.
[[nodiscard]] SwitchPower switch_power(const SwitchSpec& sw);

// Instantaneous power at a utilization (clamped to [0, 1]), watts.
[[nodiscard]] double power_watts(const PowerLevels& levels, double utilization) noexcept;

// --- Activity -> busy time -------------------------------------------------------------------------
// Energy is computed from busy time, not from a utilization fraction, so it stays an integer:
//   E = idle x interval + (active - idle) x busy.

// An accelerator's compute-unit time over an interval, split by what bounded each op. The accelerator
// model's TimeBreakdown::compute() is all of it (it does not split today: pass it as compute_bound).
struct AcceleratorActivity {
  pdes::SimTime compute_bound = 0;  // ops limited by the matrix/vector units
  pdes::SimTime memory_bound = 0;   // ops limited by HBM bandwidth
};

// Memory-bound ops keep the matrix units mostly idle and draw less than TDP. Counting them at a
// fraction of the dynamic power is optional; the default 1.0 counts all busy time at full power
// (the conservative, TDP-based reading). Any other value is an assumption (no figure in the reference).
inline constexpr double kDefaultMemoryBoundActivity = 1.0;

// compute_bound + memory_bound_activity x memory_bound, rounded to the nearest ps.
// Throws std::invalid_argument unless memory_bound_activity is in [0, 1].
[[nodiscard]] pdes::SimTime accelerator_busy(const AcceleratorActivity& activity,
                                             double memory_bound_activity = kDefaultMemoryBoundActivity);

// Time to move `bytes` at `bandwidth` bytes/s, in ps (rounded to nearest): a NIC's or port's busy
// time when only byte counts are known (the chunk fabric records serialization time directly).
// Throws std::invalid_argument on a non-positive bandwidth.
[[nodiscard]] pdes::SimTime busy_from_bytes(std::uint64_t bytes, double bandwidth);

// A switch's busy time: the mean of its ports' busy times (sum / ports, rounded), so its utilization
// is the mean port utilization, sum(bytes) / (ports x port bandwidth x time).
[[nodiscard]] pdes::SimTime mean_port_busy(pdes::SimTime sum_of_port_busy, std::uint32_t ports);

// busy / interval, 0 for an empty interval.
[[nodiscard]] double utilization(pdes::SimTime busy, pdes::SimTime interval) noexcept;

// --- Hosts ------------------------------------------------------------------------------------------
// Server power outside the accelerators and NICs (CPUs, DRAM, fans, storage, power conversion).
// hardware.hpp has no host figures and the reference gives none: ASSUMPTION, per host of 8
// accelerators (two server CPUs of ~350 W plus DRAM, fans, storage). Patterson et al.'s measured
// 330 W per V100 (TDP 300 W) shows that such overhead is real. Host utilization: the mean of its
// accelerators' utilization.
inline constexpr double kDefaultHostIdleWatts = 500.0;
inline constexpr double kDefaultHostActiveWatts = 1000.0;

// --- Estimates and facility ------------------------------------------------------------------------
// Cottier et al. 2024 (arXiv:2405.21015): GPUs average 0.75 x TDP over a training run. A cross-check
// for the simulated figure, and a fallback when no activity is known.
inline constexpr double kCottierAverageFractionOfTdp = 0.75;
[[nodiscard]] double cottier_average_watts(const AcceleratorSpec& accelerator) noexcept;

// Facility energy = IT energy x PUE (power usage effectiveness, >= 1). Throws std::invalid_argument
// when pue < 1. Double: PUE is a measured ratio, and this is the last step before reporting.
[[nodiscard]] double facility_joules(const Energy& it_energy, double pue);

}  // namespace rackscale::models::power
