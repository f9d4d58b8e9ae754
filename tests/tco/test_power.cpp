// The power model and the exact energy accumulator: values computed by hand from the formulas in
// docs/tco.md, and the invariant the engine relies on: sums are identical in any order or grouping.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "models/hardware.hpp"
#include "models/power/energy.hpp"
#include "models/power/energy_meter.hpp"
#include "models/power/power_model.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::power {
namespace {

using pdes::kMillisecond;
using pdes::kSecond;

TEST(Energy, MilliwattTimesPicosecondIsOneFemtojoule) {
  const Energy one = Energy::from_power(1, 1);
  EXPECT_EQ(one.millijoules(), 0u);
  EXPECT_EQ(one.femtojoule_remainder(), 1u);

  // 700 W for 1 s is 700 J = 700,000 mJ exactly.
  const Energy gpu = Energy::from_power(700'000, kSecond);
  EXPECT_EQ(gpu.millijoules(), 700'000u);
  EXPECT_EQ(gpu.femtojoule_remainder(), 0u);
  EXPECT_DOUBLE_EQ(gpu.joules(), 700.0);
  EXPECT_DOUBLE_EQ(gpu.kilowatt_hours(), 700.0 / 3.6e6);
}

TEST(Energy, LimbsCarry) {
  const Energy e = Energy::from_limbs(2, 3'000'000'000'005);  // 3 mJ + 5 fJ in the remainder limb
  EXPECT_EQ(e.millijoules(), 5u);
  EXPECT_EQ(e.femtojoule_remainder(), 5u);
  Energy a = Energy::from_limbs(0, 999'999'999'999);
  a += Energy::from_power(1, 1);
  EXPECT_EQ(a.millijoules(), 1u);
  EXPECT_EQ(a.femtojoule_remainder(), 0u);
}

TEST(Energy, SumsDoNotDependOnOrderOrGrouping) {
  // Awkward powers and times, as many components over many intervals would give.
  std::mt19937_64 rng(42);
  std::vector<Energy> parts;
  for (int i = 0; i < 10'000; ++i) {
    parts.push_back(Energy::from_power(rng() % 2'000'000, rng() % (1000 * kSecond)));
  }
  Energy forward;
  for (const auto& p : parts) forward += p;
  Energy backward;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) backward += *it;
  EXPECT_EQ(forward, backward);

  // As ranks would: four groups summed, then the limbs reduced element-wise (an MPI_SUM) and carried.
  std::shuffle(parts.begin(), parts.end(), rng);
  std::uint64_t mj = 0, fj = 0;
  for (std::size_t rank = 0; rank < 4; ++rank) {
    Energy local;
    for (std::size_t i = rank; i < parts.size(); i += 4) local += parts[i];
    mj += local.millijoules();
    fj += local.femtojoule_remainder();
  }
  EXPECT_EQ(Energy::from_limbs(mj, fj), forward);
}

TEST(Energy, TimesEqualsRepeatedAddition) {
  const Energy e = Energy::from_power(330'123, 123'456'789'012'345);
  Energy sum;
  for (int i = 0; i < 1000; ++i) sum += e;
  EXPECT_EQ(e.times(1000), sum);
  EXPECT_EQ(e.times(0), Energy{});
}

TEST(Energy, OverflowIsAnError) {
  const Energy huge = Energy::from_limbs(UINT64_MAX - 1, 0);
  EXPECT_THROW(static_cast<void>(huge + Energy::from_limbs(2, 0)), std::overflow_error);
  EXPECT_THROW(static_cast<void>(huge.times(2)), std::overflow_error);
}

TEST(PowerModel, LevelsFromPresets) {
  AcceleratorSpec h100;
  h100.tdp_watts = 700;
  h100.idle_watts = 70;
  const PowerLevels a = accelerator_levels(h100);
  EXPECT_EQ(a.idle_mw, 70'000u);
  EXPECT_EQ(a.active_mw, 700'000u);
  EXPECT_DOUBLE_EQ(power_watts(a, 0.0), 70.0);
  EXPECT_DOUBLE_EQ(power_watts(a, 0.5), 385.0);  // 70 + 630 x 0.5
  EXPECT_DOUBLE_EQ(power_watts(a, 1.0), 700.0);
  EXPECT_DOUBLE_EQ(power_watts(a, 2.0), 700.0);  // clamped

  NicSpec cx7;
  cx7.active_watts = 25;
  cx7.idle_watts = 17.5;
  EXPECT_EQ(nic_levels(cx7).idle_mw, 17'500u);

  SwitchSpec q3400;
  q3400.radix = 144;
  q3400.idle_watts = 1400;
  q3400.port_watts = 4.2;
  const SwitchPower sw = switch_power(q3400);
  EXPECT_EQ(sw.idle_mw, 1'400'000u);
  EXPECT_EQ(sw.port_mw, 4'200u);
  EXPECT_DOUBLE_EQ(sw.active_watts(), 1400 + 144 * 4.2);  // every port at full rate: 2004.8 W

  EXPECT_DOUBLE_EQ(cottier_average_watts(h100), 525.0);  // 0.75 x 700 W
}

TEST(PowerModel, InvalidFiguresAreErrors) {
  EXPECT_THROW(static_cast<void>(make_levels(100, 50)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(to_milliwatts(-1)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(facility_joules(Energy{}, 0.9)), std::invalid_argument);
  SwitchSpec no_ports;
  EXPECT_THROW(static_cast<void>(switch_power(no_ports)), std::invalid_argument);
  EXPECT_THROW(static_cast<void>(accelerator_busy({10, 10}, 1.5)), std::invalid_argument);
}

TEST(PowerModel, BusyTimes) {
  EXPECT_EQ(accelerator_busy({100, 60}), 160u);       // default: memory-bound work at full power
  EXPECT_EQ(accelerator_busy({100, 60}, 0.5), 130u);  // 100 + 0.5 x 60
  // 25 MB at 400 Gb/s (5e10 B/s): 0.5 ms.
  EXPECT_EQ(busy_from_bytes(25'000'000, 5e10), kMillisecond / 2);
  EXPECT_EQ(mean_port_busy(10, 4), 3u);  // 2.5 rounds half up
  EXPECT_EQ(mean_port_busy(9, 4), 2u);   // 2.25
  EXPECT_EQ(mean_port_busy(11, 4), 3u);  // 2.75
  EXPECT_DOUBLE_EQ(utilization(250, 1000), 0.25);
  EXPECT_DOUBLE_EQ(utilization(0, 0), 0.0);
}

TEST(EnergyMeter, BusyIntervalsIntegrateExactly) {
  EnergyMeter gpu(make_levels(70, 700));
  gpu.add_busy(kSecond / 4, kSecond);  // 70 + 630 x 0.25 = 227.5 J
  EXPECT_EQ(gpu.energy().millijoules(), 227'500u);
  EXPECT_EQ(gpu.energy().femtojoule_remainder(), 0u);
  gpu.add_utilization(1.0, kSecond);  // + 700 J
  EXPECT_EQ(gpu.energy().millijoules(), 927'500u);
  EXPECT_EQ(gpu.elapsed(), 2 * kSecond);
  EXPECT_EQ(gpu.busy(), kSecond + kSecond / 4);
  EXPECT_DOUBLE_EQ(gpu.average_watts(), 463.75);
  EXPECT_THROW(gpu.add_busy(2, 1), std::invalid_argument);
}

TEST(EnergyMeter, BytesOverBandwidth) {
  // A 400G NIC (17.5 W idle, 25 W active) moving 25 MB in 1 ms: busy 0.5 ms,
  // E = 17.5 x 1e-3 + 7.5 x 0.5e-3 = 0.02125 J = 21 mJ + 0.25e12 fJ.
  EnergyMeter nic(make_levels(17.5, 25));
  nic.add_bytes(25'000'000, 5e10, kMillisecond);
  EXPECT_EQ(nic.energy().millijoules(), 21u);
  EXPECT_EQ(nic.energy().femtojoule_remainder(), 250'000'000'000u);
  // More bytes than the interval can carry are capped at fully busy.
  EnergyMeter capped(make_levels(17.5, 25));
  capped.add_bytes(100'000'000, 5e10, kMillisecond);
  EXPECT_EQ(capped.energy().millijoules(), 25u);
}

TEST(EnergyMeter, MergingMetersEqualsOneMeter) {
  const PowerLevels levels = make_levels(123.4, 987.6);
  EnergyMeter all(levels), a(levels), b(levels);
  for (std::uint64_t i = 1; i <= 100; ++i) {
    const pdes::SimTime interval = i * 1'234'567'891;
    const pdes::SimTime busy = interval / (i % 7 + 1);
    all.add_busy(busy, interval);
    (i % 3 == 0 ? a : b).add_busy(busy, interval);
  }
  a.merge(b);
  EXPECT_EQ(a.energy(), all.energy());
  EXPECT_EQ(a.busy(), all.busy());
}

// Patterson et al. 2021, Table 4, GPT-3: 10,000 V100 at 330 W average system power for 14.8 days,
// PUE 1.10, 0.429 kgCO2e/kWh -> 1,287 MWh, 552.1 tCO2e. Through the exact meter, one chip at a time.
TEST(EnergyMeter, PattersonGpt3) {
  const pdes::SimTime duration = static_cast<pdes::SimTime>(14.8 * 86400) * kSecond;
  EnergyMeter chip;
  chip.add_constant(to_milliwatts(330), duration);
  Energy cluster;
  for (int i = 0; i < 10'000; ++i) cluster += chip.energy();
  EXPECT_EQ(cluster, chip.energy().times(10'000));
  const double mwh = facility_joules(cluster, 1.10) / 3.6e9;
  EXPECT_NEAR(mwh, 1287.0, 0.01 * 1287.0);
  EXPECT_NEAR(mwh * 0.429, 552.1, 0.01 * 552.1);
}

}  // namespace
}  // namespace rackscale::models::power
