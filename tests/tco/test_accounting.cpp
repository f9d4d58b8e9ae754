// Accounting without a simulation (models/tco/accounting.hpp): published footprints stated as GPU-hours x
// power per device x PUE x grid intensity, reproduced by hand here from the inputs of
// data/reference/energy_carbon_cost.md (Patterson et al. 2021, Table 4; the DeepSeek-V3 report's
// GPU-hours at Cottier et al.'s $2 anchor), and the presets-based power worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/hardware.hpp"
#include "models/power/cluster_energy.hpp"
#include "models/power/power_model.hpp"
#include "models/tco/accounting.hpp"

namespace rackscale::models::tco {
namespace {

HardwareInventory cluster_of(std::uint64_t accelerators, std::uint64_t hosts) {
  HardwareInventory inv;
  inv.counts.accelerators = accelerators;
  inv.counts.hosts = hosts;
  inv.bom.accelerators = accelerators;
  inv.bom.hosts = hosts;
  return inv;
}

TcoSettings published(double pue, double kg_per_kwh) {
  TcoSettings s;
  s.inputs.pue = pue;
  s.inputs.grid_g_per_kwh = kg_per_kwh * 1000;
  return s;
}

struct Footprint {
  const char* model;
  double chips, days, watts_per_chip, pue, kg_per_kwh;
  double published_mwh, published_tco2e;
};

// GPT-3: 10,000 V100 x 14.8 days x 330 W x PUE 1.10 at 0.429 kg/kWh = 1,289.4 MWh and 553.1 t
// (published: 1,287 MWh, 552.1 t). T5: 512 TPU v3 x 20 days x 310 W x 1.12 at 0.545 kg/kWh = 85.33 MWh
// and 46.50 t (published: 85.7 MWh, 46.7 t).
TEST(Accounting, PublishedFootprintsByHand) {
  const Footprint rows[] = {{"GPT-3", 10'000, 14.8, 330, 1.10, 0.429, 1287, 552.1},
                            {"T5", 512, 20, 310, 1.12, 0.545, 85.7, 46.7}};
  for (const Footprint& f : rows) {
    SCOPED_TRACE(f.model);
    const double gpu_hours = f.chips * f.days * 24;
    const double it_kwh = gpu_hours * f.watts_per_chip / 1000;
    const double facility_kwh = it_kwh * f.pue;
    const double operational_kg = facility_kwh * f.kg_per_kwh;

    AccountingRequest request;
    request.device_hours = gpu_hours;
    request.watts_per_device = f.watts_per_chip;
    const TcoReport r = account(published(f.pue, f.kg_per_kwh), cluster_of(static_cast<std::uint64_t>(f.chips), 0),
                                power::ClusterPower{}, request, "test");
    EXPECT_NEAR(r.whole_run.device_hours, gpu_hours, 1e-9 * gpu_hours);
    EXPECT_NEAR(r.whole_run.it_energy_kwh, it_kwh, 1e-9 * it_kwh);
    EXPECT_NEAR(r.whole_run.facility_energy_kwh, facility_kwh, 1e-9 * facility_kwh);
    EXPECT_NEAR(r.whole_run.operational_kgco2e, operational_kg, 1e-9 * operational_kg);
    EXPECT_NEAR(r.whole_run.seconds, f.days * 86400, 1e-6);
    // The paper's own rounding (days to one decimal) keeps the published figures within 0.5 %.
    EXPECT_NEAR(facility_kwh / 1000, f.published_mwh, 0.005 * f.published_mwh);
    EXPECT_NEAR(operational_kg / 1000, f.published_tco2e, 0.005 * f.published_tco2e);
  }
}

// DeepSeek-V3: 2,788K H800 GPU-hours at $2 per GPU-hour = $5.576M (the report's figure).
TEST(Accounting, CloudPriceOfPublishedGpuHours) {
  TcoSettings s;
  s.inputs.prices.cloud_usd_per_device_hour = 2.0;
  AccountingRequest request;
  request.device_hours = 2'788'000;
  request.watts_per_device = 0;
  const TcoReport r = account(s, cluster_of(2'048, 256), power::ClusterPower{}, request, "test");
  EXPECT_NEAR(r.whole_run.cloud_equivalent_usd, 5.576e6, 1e-6);
}

// Without a power per device: accelerators and hosts at the utilization between idle and active, NICs
// and switches idle, the optics on. 8 devices (70 -> 700 W) in 1 host (500 -> 1000 W) at 0.75: 8 x 542.5
// + 875 = 5,215 W; 8 NICs idle 17.5 W, one switch idle 525 W, 16 transceivers of 9 W: 140 + 525 + 144.
TEST(Accounting, PowerFromThePresetsByHand) {
  HardwareInventory inv = cluster_of(8, 1);
  inv.bom.nics = NicLine{"nic", 8, 1'500, 17.5, 25, 0, 0};
  SwitchLine sw;
  sw.tier = "leaf";
  sw.count = 1;
  sw.idle_watts = 525;
  sw.active_watts = 525 + 8 * 3.5;
  inv.bom.switches.push_back(sw);
  CableLine cables;
  cables.tier = "NIC";
  cables.optical = 8;
  cables.transceiver_watts = 9;
  inv.bom.cables.push_back(cables);
  power::ClusterPower p;
  p.accelerator = power::make_levels(70, 700);
  p.host = power::make_levels(500, 1000);
  AccountingRequest request;
  request.device_hours = 8 * 10.0;  // 10 hours
  const TcoReport r = account(TcoSettings{}, inv, p, request, "test");
  const double watts = 8 * (70 + 630 * 0.75) + (500 + 500 * 0.75) + 8 * 17.5 + 525 + 16 * 9;
  EXPECT_NEAR(r.whole_run.it_energy_kwh, watts * 10 / 1000, 1e-9 * watts);

  // A quarter of the time idle (a job restarting, docs/goodput.md): accelerators and hosts at their
  // idle power then, the network as before.
  request.idle_share = 0.25;
  const TcoReport waiting = account(TcoSettings{}, inv, p, request, "test");
  const double busy = 8 * (70 + 630 * 0.75) + (500 + 500 * 0.75), idle = 8 * 70 + 500;
  const double mixed = 0.75 * busy + 0.25 * idle + 8 * 17.5 + 525 + 16 * 9;
  EXPECT_NEAR(waiting.whole_run.it_energy_kwh, mixed * 10 / 1000, 1e-9 * mixed);
}

TEST(Accounting, BadRequestsAreErrors) {
  const HardwareInventory inv = cluster_of(8, 1);
  AccountingRequest request;
  request.device_hours = 0;
  EXPECT_THROW(static_cast<void>(account(TcoSettings{}, inv, power::ClusterPower{}, request, "t")), std::invalid_argument);
  request.device_hours = 8 * 24 * 300.0;  // 300 days: past the picosecond clock
  EXPECT_THROW(static_cast<void>(account(TcoSettings{}, inv, power::ClusterPower{}, request, "t")), std::invalid_argument);
  request.device_hours = 8;
  request.utilization = 1.5;
  EXPECT_THROW(static_cast<void>(account(TcoSettings{}, inv, power::ClusterPower{}, request, "t")), std::invalid_argument);
  request.utilization = 0.5;
  request.idle_share = -0.1;
  EXPECT_THROW(static_cast<void>(account(TcoSettings{}, inv, power::ClusterPower{}, request, "t")), std::invalid_argument);
}

}  // namespace
}  // namespace rackscale::models::tco
