// The `tco:` section: every key lands in the resolved settings, absent keys keep docs/tco.md's
// defaults (with the accelerator preset's figures), and --set reaches it like any other key.
#include <gtest/gtest.h>

#include "config_test_support.hpp"

namespace rackscale::io::test {
namespace {

namespace tco = models::tco;

TEST(TcoConfig, AbsentSectionKeepsTheDefaultsAndThePresetsFigures) {
  const models::Scenario s = load_text(kMinimalScenario);
  const tco::TcoInputs& in = s.tco.inputs;
  EXPECT_EQ(in.token_budget, 0u);
  EXPECT_EQ(in.pue, 1.1);
  EXPECT_EQ(in.grid_g_per_kwh, 380.0);
  EXPECT_EQ(in.lifetime_years, 5.0);
  EXPECT_EQ(in.depreciation, tco::Depreciation::straight_line);
  EXPECT_EQ(in.provisioned_it_watts, 0.0);  // auto: the run sums count x active power
  EXPECT_EQ(in.prices.accelerator_usd, 25'000.0);  // h100-sxm5-80gb's assumed price
  EXPECT_FALSE(s.tco.accelerator_price_assumed);
  EXPECT_EQ(in.embodied.die_area_mm2, 814.0);
  EXPECT_EQ(in.embodied.process_nm, 4.0);
  EXPECT_EQ(in.embodied.accelerator_memory_gb, 80.0);
  EXPECT_EQ(s.tco.host_idle_watts, 500.0);
  EXPECT_EQ(s.tco.host_active_watts, 1000.0);
  EXPECT_EQ(s.tco.memory_bound_activity, 1.0);
}

TEST(TcoConfig, EveryKeyLands) {
  const models::Scenario s = load_text(std::string(kMinimalScenario) + R"(tco:
  token_budget: 15.6e12
  lifetime_years: 4
  depreciation: exponential
  decay_oom_per_year: 0.2
  hardware_age_years: 1
  facility_lifetime_years: 20
  pue: 1.25
  electricity_price: 0.1
  grid_intensity: 429
  maintenance_per_year: 0.03
  provisioned_it_power: 12MW
  prices:
    accelerator: 30000
    server_factor: 1.5
    nics_in_server: false
    nic: 2000
    switch: 30000
    optics_per_port: 500
    network: cottier_factor
    network_share: 0.2
    facility_per_mw: 12000000
    cloud_per_device_hour: 2.5
  power: {host_idle: 400W, host_active: 1.2kW, memory_bound_activity: 0.5}
  embodied:
    method: act
    host_dram: 1TB
    host_ssd: 15360GB
    host_cpu_die_area_mm2: 400
    host_cpu_process_nm: 5
    cpa_kg_per_cm2: 2
    act: {epa_kwh_per_cm2: 3, gpa_g_per_cm2: 450}
    fab_grid: iceland
    abatement: 99
    yield: 0.9
)");
  const tco::TcoInputs& in = s.tco.inputs;
  EXPECT_EQ(in.token_budget, 15'600'000'000'000u);
  EXPECT_EQ(in.lifetime_years, 4.0);
  EXPECT_EQ(in.depreciation, tco::Depreciation::exponential);
  EXPECT_EQ(in.decay_oom_per_year, 0.2);
  EXPECT_EQ(in.hardware_age_years, 1.0);
  EXPECT_EQ(in.facility_lifetime_years, 20.0);
  EXPECT_EQ(in.pue, 1.25);
  EXPECT_EQ(in.prices.electricity_usd_per_kwh, 0.1);
  EXPECT_EQ(in.grid_g_per_kwh, 429.0);
  EXPECT_EQ(in.maintenance_fraction_per_year, 0.03);
  EXPECT_EQ(in.provisioned_it_watts, 12e6);
  EXPECT_EQ(in.prices.accelerator_usd, 30'000.0);
  EXPECT_EQ(in.prices.server_factor, 1.5);
  EXPECT_FALSE(in.prices.nics_in_server);
  EXPECT_EQ(in.prices.nic_usd, 2'000.0);
  EXPECT_EQ(in.prices.switch_usd, 30'000.0);
  EXPECT_EQ(in.prices.optics_per_port_usd, 500.0);
  EXPECT_EQ(in.prices.network, tco::NetworkCost::cottier_factor);
  EXPECT_EQ(in.prices.cottier_network_share, 0.2);
  EXPECT_EQ(in.prices.facility_usd_per_mw, 12e6);
  EXPECT_EQ(in.prices.cloud_usd_per_device_hour, 2.5);
  EXPECT_EQ(s.tco.host_idle_watts, 400.0);
  EXPECT_EQ(s.tco.host_active_watts, 1200.0);
  EXPECT_EQ(s.tco.memory_bound_activity, 0.5);
  const tco::EmbodiedSettings& e = in.embodied;
  EXPECT_EQ(e.method, tco::EmbodiedMethod::act);
  EXPECT_EQ(e.host_dram_gb, 1000.0);  // decimal GB, the unit of LLMCarbon's figures
  EXPECT_EQ(e.host_ssd_gb, 15'360.0);
  EXPECT_EQ(e.host_cpu_die_area_mm2, 400.0);
  EXPECT_EQ(e.host_cpu_process_nm, 5.0);
  EXPECT_EQ(e.cpa_kg_per_cm2, 2.0);
  ASSERT_TRUE(e.act_node.has_value());
  EXPECT_EQ(e.act_node->epa_kwh_per_cm2, 3.0);
  EXPECT_EQ(e.act_node->gpa_g_per_cm2, 450.0);
  EXPECT_EQ(e.act_node->mpa_g_per_cm2, 500.0);  // ACT's, when not written
  EXPECT_EQ(e.fab_grid_g_per_kwh, 28.0);        // ACT's Iceland
  EXPECT_EQ(e.abatement, tco::GasAbatement::percent99);
  EXPECT_EQ(e.yield, 0.9);
  // Keys are located like every other.
  EXPECT_EQ(s.key_locations.at("tco.prices.nic"), s.source_file + ":27:5");
  EXPECT_EQ(s.key_locations.at("tco.prices.nics_in_server"), s.source_file + ":26:5");
  EXPECT_NO_THROW(tco::validate(in));
}

TEST(TcoConfig, OverridesAndPresetNames) {
  const models::Scenario s =
      load_text(kMinimalScenario, {"tco.pue=1.2", "tco.grid=usa_patterson2021", "tco.provisioned_it_power=auto",
                                   "tco.embodied.fab_grid=taiwan"});
  EXPECT_EQ(s.tco.inputs.pue, 1.2);
  EXPECT_EQ(s.tco.inputs.grid_g_per_kwh, 429.0);
  EXPECT_EQ(s.tco.inputs.provisioned_it_watts, 0.0);
  EXPECT_EQ(s.tco.inputs.embodied.fab_grid_g_per_kwh, 583.0);
  const std::string bad = write_temp(kMinimalScenario);
  EXPECT_EQ(load_error(bad, {"tco.pue=0.5"}), "--set tco.pue=0.5: tco.pue: expected a number >= 1, found 0.5");
}

TEST(TcoConfig, AcceleratorWithoutAnAssumedPriceIsFlagged) {
  std::string text = kMinimalScenario;
  text.replace(text.find("h100-sxm5-80gb"), 14, "tpu-v5p");
  EXPECT_TRUE(load_text(text).tco.accelerator_price_assumed);
  EXPECT_FALSE(load_text(text, {"tco.prices.accelerator=4000"}).tco.accelerator_price_assumed);
}

}  // namespace
}  // namespace rackscale::io::test
