// The TCO and carbon model against the published figures of data/reference/energy_carbon_cost.md
// and a small case worked by hand. Expected values are written out here from the papers and the
// formulas of docs/tco.md, never taken from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/hardware.hpp"
#include "models/tco/compute_tco.hpp"
#include "models/tco/depreciation.hpp"
#include "models/tco/embodied_carbon.hpp"
#include "models/tco/grid_intensity.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::tco {
namespace {

using pdes::kSecond;

constexpr double kSecondsPerYear = 365.25 * 86400;

void expect_within(double actual, double expected, double relative, const std::string& what) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * relative) << what;
}

// std::round, not llround: times past 106 days overflow a signed 64-bit picosecond count.
pdes::SimTime seconds(double s) { return static_cast<pdes::SimTime>(std::round(s * 1e12)); }

// --- Patterson et al. 2021, Table 4 ----------------------------------------------------------------

struct PattersonRow {
  const char* model;
  double chips, days, watts_per_chip, pue, kg_per_kwh, mwh, tco2e;
};

TEST(Patterson2021, Table4Rows) {
  const PattersonRow rows[] = {
      {"T5", 512, 20, 310, 1.12, 0.545, 85.7, 46.7},
      {"Meena", 1024, 30, 289, 1.09, 0.415, 232, 96.4},
      {"GShard-600B", 1024, 3.1, 288, 1.09, 0.201, 24.1, 4.8},
      {"Switch Transformer", 1024, 27, 245, 1.10, 0.403, 179, 72.2},
      {"GPT-3", 10'000, 14.8, 330, 1.10, 0.429, 1287, 552.1},
  };
  for (const auto& row : rows) {
    TcoInputs in;
    in.counts.accelerators = static_cast<std::uint64_t>(row.chips);
    in.pue = row.pue;
    in.grid_g_per_kwh = row.kg_per_kwh * 1000;
    RunMeasures m;
    m.iteration_time = seconds(row.days * 86400);  // the whole run as one "iteration"
    m.iterations = 1;
    m.it_joules_per_iteration.accelerators = row.chips * row.watts_per_chip * row.days * 86400;
    const TcoReport r = compute_tco(in, m);
    expect_within(r.whole_run.facility_energy_kwh / 1000, row.mwh, 0.01, std::string(row.model) + " MWh");
    expect_within(r.whole_run.operational_kgco2e / 1000, row.tco2e, 0.01, std::string(row.model) + " tCO2e");
    expect_within(r.whole_run.device_hours, row.chips * row.days * 24, 1e-9, std::string(row.model) + " chip-hours");
  }
}

// Split into iterations, the same run gives the same totals, and per-iteration figures divide evenly.
TEST(Patterson2021, Gpt3AsIterations) {
  TcoInputs in;
  in.counts.accelerators = 10'000;
  in.pue = 1.10;
  in.grid_g_per_kwh = 429;
  RunMeasures m;
  m.iterations = 12'800;
  m.iteration_time = seconds(14.8 * 86400 / 12'800);  // 99.9 s
  m.it_joules_per_iteration.accelerators = 10'000 * 330 * 99.9;
  const TcoReport r = compute_tco(in, m);
  expect_within(r.whole_run.facility_energy_kwh / 1000, 1287, 0.01, "MWh");
  expect_within(r.whole_run.operational_kgco2e / 1000, 552.1, 0.01, "tCO2e");
  expect_within(r.per_iteration.facility_energy_kwh, 10'000 * 330 * 99.9 * 1.10 / 3.6e6, 1e-12, "kWh/iteration");
  EXPECT_NEAR(r.whole_run.seconds, 14.8 * 86400, 1e-3);
}

// --- Embodied carbon ----------------------------------------------------------------------------

TEST(LlmCarbon, PublishedChipExamples) {
  // V100: 815 mm2 at 12 nm (CPA 1.2) -> 9.78 kg; H100: 814 mm2 at 4 nm (CPA 1.8) -> 14.65 kg.
  const auto v100 = llmcarbon_cpa(12);
  ASSERT_TRUE(v100.has_value());
  EXPECT_FALSE(v100->interpolated);
  expect_within(llmcarbon_die_kg(815, v100->kg_per_cm2), 9.78, 0.001, "V100");
  const auto h100 = llmcarbon_cpa(4);
  ASSERT_TRUE(h100.has_value());
  expect_within(llmcarbon_die_kg(814, h100->kg_per_cm2), 14.65, 0.001, "H100");

  EXPECT_DOUBLE_EQ(llmcarbon_cpa(16)->kg_per_cm2, 1.0);
  EXPECT_DOUBLE_EQ(llmcarbon_cpa(7)->kg_per_cm2, 1.6);
  // 5 nm lies between 7 nm (1.6) and 4 nm (1.8): 1.6 + (2/3) x 0.2, flagged as interpolated.
  const auto n5 = llmcarbon_cpa(5);
  ASSERT_TRUE(n5.has_value());
  EXPECT_TRUE(n5->interpolated);
  EXPECT_NEAR(n5->kg_per_cm2, 1.6 + 0.2 * 2.0 / 3.0, 1e-12);
  EXPECT_FALSE(llmcarbon_cpa(28).has_value());
  EXPECT_FALSE(llmcarbon_cpa(3).has_value());

  // Memory and storage: 80 GB of HBM at 0.4 kg/GB = 32 kg; 1 TB of SSD at 0.024 kg/GB = 24 kg.
  EXPECT_DOUBLE_EQ(memory_storage_kg(80, 1000), 32.0 + 24.0);
}

TEST(LlmCarbon, FromAcceleratorPreset) {
  AcceleratorSpec v100;
  v100.name = "v100-sxm2-32gb";
  v100.die_area_mm2 = 815;
  v100.process_nm = 12;
  v100.memory_bytes = 32ULL << 30;
  TcoInputs in = inputs_for(v100, HardwareCounts{.accelerators = 8, .hosts = 1});
  EXPECT_DOUBLE_EQ(in.prices.accelerator_usd, 10'000);  // the labelled assumption for V100
  EXPECT_DOUBLE_EQ(in.embodied.accelerator_memory_gb, 32);
  RunMeasures m;
  m.iteration_time = kSecond;
  m.iterations = 1;
  const TcoReport r = compute_tco(in, m);
  expect_within(r.accelerator_die_llmcarbon_kg, 9.78, 0.001, "V100 die");
  EXPECT_DOUBLE_EQ(r.accelerator_memory_kg, 32 * 0.4);
  // ACT's table has no 12 nm figures: NaN, noted, and the total uses LLMCarbon.
  EXPECT_TRUE(std::isnan(r.accelerator_die_act_kg));
  EXPECT_FALSE(r.notes.empty());
  const double share = 1.0 / kSecondsPerYear / 5;
  const double expected = share * (8 * (9.78 + 12.8) + 1 * (2048 * 0.4 + 30'720 * 0.024));
  expect_within(r.whole_run.embodied_kgco2e, expected, 1e-9, "charged embodied");

  // Asking for ACT falls back to LLMCarbon, with a note.
  in.embodied.method = EmbodiedMethod::act;
  const TcoReport act = compute_tco(in, m);
  expect_within(act.whole_run.embodied_kgco2e, expected, 1e-9, "fallback");
}

TEST(Embodied, UnknownDieAreaIsNotCharged) {
  // A preset without a die area (TPU v5p): only its HBM is charged (95 GB x 0.4 kg), with a note.
  TcoInputs in;
  in.counts = {.accelerators = 4, .hosts = 1};
  in.embodied.process_nm = 5;
  in.embodied.accelerator_memory_gb = 95;
  in.embodied.host_dram_gb = 0;
  in.embodied.host_ssd_gb = 0;
  RunMeasures m;
  m.iteration_time = seconds(kSecondsPerYear / 2);  // a year does not fit in 64-bit picoseconds
  m.iterations = 2;
  const TcoReport r = compute_tco(in, m);
  EXPECT_EQ(r.accelerator_die_llmcarbon_kg, 0.0);
  EXPECT_EQ(r.accelerator_die_act_kg, 0.0);
  EXPECT_NEAR(r.whole_run.embodied_kgco2e, 4 * 95 * 0.4 / 5, 1e-9);  // one year of five
  EXPECT_NEAR(r.whole_run.embodied_act_kgco2e, 4 * 95 * 0.4 / 5, 1e-9);
  EXPECT_FALSE(r.notes.empty());
}

TEST(Act, WorkedExampleByHand) {
  // A100-like die, 826 mm2 = 8.26 cm2 at 7 nm, fab in Taiwan (583 g/kWh), 95% abatement, yield 0.875:
  //   per cm2: 583 x 2.15 + 350 + 500 = 1253.45 + 850 = 2103.45 g
  //   die: 8.26 x 2103.45 / 0.875 = 19856.568 g = 19.856568 kg
  const auto n7 = act_node_figures(7, GasAbatement::percent95);
  ASSERT_TRUE(n7.has_value());
  EXPECT_FALSE(n7->interpolated);
  EXPECT_NEAR(act_die_kg(826, *n7, 583, kActDefaultYield), 19.856568, 1e-6);

  // 5 nm, 99% abatement, world grid (301), 100 mm2: 1 x (301 x 2.75 + 225 + 500) / 0.875 = 1774.0 g.
  const auto n5 = act_node_figures(5, GasAbatement::percent99);
  ASSERT_TRUE(n5.has_value());
  EXPECT_NEAR(act_die_kg(100, *n5, 301, 0.875), (827.75 + 725) / 0.875 / 1000, 1e-12);

  // 3 nm table values; 4 nm interpolated halfway between 5 and 3 nm; 12 nm outside the table.
  const auto n3 = act_node_figures(3, GasAbatement::percent95);
  EXPECT_DOUBLE_EQ(n3->epa_kwh_per_cm2, 3.25);
  EXPECT_DOUBLE_EQ(n3->gpa_g_per_cm2, 470);
  const auto n4 = act_node_figures(4, GasAbatement::percent95);
  ASSERT_TRUE(n4.has_value());
  EXPECT_TRUE(n4->interpolated);
  EXPECT_DOUBLE_EQ(n4->epa_kwh_per_cm2, 3.0);
  EXPECT_DOUBLE_EQ(n4->gpa_g_per_cm2, 450);
  EXPECT_DOUBLE_EQ(n4->mpa_g_per_cm2, 500);
  EXPECT_FALSE(act_node_figures(12, GasAbatement::percent95).has_value());
}

TEST(Embodied, ChargedByRunTimeOverLifetime) {
  EXPECT_DOUBLE_EQ(embodied_share(0.5, 5), 0.1);
  EXPECT_DOUBLE_EQ(embodied_share(10, 5), 2.0);  // not capped
}

// --- Grid ---------------------------------------------------------------------------------------

TEST(Grid, PresetsFromTheReference) {
  const std::pair<const char*, double> expected[] = {
      {"world", 301}, {"usa", 380},  {"europe", 295}, {"taiwan", 583},  {"india", 725}, {"iceland", 28},
      {"coal", 820},  {"gas", 490},  {"solar", 41},   {"hydro", 24},    {"nuclear", 12}, {"wind", 11},
      {"usa_patterson2021", 429},
  };
  for (const auto& [name, g] : expected) {
    const auto found = grid_intensity_g_per_kwh(name);
    ASSERT_TRUE(found.has_value()) << name;
    EXPECT_DOUBLE_EQ(*found, g) << name;
  }
  EXPECT_EQ(grid_presets().size(), std::size(expected));
  EXPECT_FALSE(grid_intensity_g_per_kwh("mars").has_value());
  EXPECT_TRUE(grid_intensity_g_per_kwh(kDefaultGrid).has_value());
}

// --- Depreciation -------------------------------------------------------------------------------

TEST(Depreciation, CottierExponential) {
  // value(t) = 10^(-0.14 t): 0.7244 after a year, 0.1995 after five, ~0.105 (about 10x less) after seven.
  EXPECT_NEAR(remaining_value(Depreciation::exponential, 0, 5), 1.0, 1e-15);
  EXPECT_NEAR(remaining_value(Depreciation::exponential, 1, 5), 0.72443596007499, 1e-12);
  EXPECT_NEAR(remaining_value(Depreciation::exponential, 5, 5), 0.19952623149688792, 1e-12);
  EXPECT_NEAR(remaining_value(Depreciation::exponential, 7, 5), 0.10471285480508993, 1e-12);
  // Lost over the second year: 0.72443596 - 10^(-0.28) = 0.72443596 - 0.52480746.
  EXPECT_NEAR(value_lost(Depreciation::exponential, 1, 1, 5), 0.72443596007499 - 0.5248074602497726, 1e-12);
  // No lifetime cut-off: still worth something after the lifetime.
  EXPECT_GT(remaining_value(Depreciation::exponential, 10, 5), 0.0);
}

TEST(Depreciation, StraightLine) {
  EXPECT_DOUBLE_EQ(remaining_value(Depreciation::straight_line, 2, 5), 0.6);
  EXPECT_DOUBLE_EQ(value_lost(Depreciation::straight_line, 0, 1, 5), 0.2);
  EXPECT_NEAR(value_lost(Depreciation::straight_line, 4.5, 1, 5), 0.1, 1e-15);  // stops at the lifetime
  EXPECT_DOUBLE_EQ(remaining_value(Depreciation::straight_line, 7, 5), 0.0);
}

// --- Cost anchors -------------------------------------------------------------------------------

TEST(Cottier2024, CloudAnchorDeepSeekV3) {
  // 2,788K H800 GPU-hours at $2 -> $5.576M. 2,048 GPUs for 2,788,000 / 2,048 hours.
  TcoInputs in;
  in.counts.accelerators = 2048;
  RunMeasures m;
  m.iterations = 1;
  m.iteration_time = seconds(2'788'000.0 / 2048 * 3600);
  const TcoReport r = compute_tco(in, m);
  EXPECT_NEAR(r.whole_run.device_hours, 2'788'000, 1e-3);
  EXPECT_NEAR(r.whole_run.cloud_equivalent_usd, 5'576'000, 1e-2);
}

TEST(Cottier2024, ServerAndNetworkFactors) {
  TcoInputs in;
  in.counts = {.accelerators = 16, .hosts = 2, .nics = 16, .switches = 2, .optical_ports = 64};
  in.prices.accelerator_usd = 25'000;
  in.prices.network = NetworkCost::cottier_factor;
  in.provisioned_it_watts = 20'000;
  RunMeasures m;
  m.iteration_time = kSecond;
  m.iterations = 1;
  const TcoReport r = compute_tco(in, m);
  // Server = 1.64 x accelerators = 656,000; the cluster is servers / (1 - 0.19) = 809,876.54.
  EXPECT_DOUBLE_EQ(r.accelerators_capex_usd, 400'000);
  EXPECT_NEAR(r.hosts_capex_usd, 256'000, 1e-6);
  EXPECT_NEAR(r.hardware_capex_usd, 656'000 / 0.81, 1e-6);
  EXPECT_NEAR(r.network_capex_usd / r.hardware_capex_usd, 0.19, 1e-12);
  EXPECT_EQ(r.breakdown[2].item, "network (Cottier share)");
}

// --- A small run, worked by hand ----------------------------------------------------------------

TEST(SmallRun, WorkedByHand) {
  // 16 H100s in 2 hosts, 16 NICs, 2 switches, 64 optical ports, a 20 kW facility.
  TcoInputs in;
  in.counts = {.accelerators = 16, .hosts = 2, .nics = 16, .switches = 2, .optical_ports = 64};
  in.prices.accelerator_usd = 25'000;
  in.prices.nic_usd = 1'500;
  in.prices.switch_usd = 25'000;
  in.prices.optics_per_port_usd = 750;
  in.prices.facility_usd_per_mw = 10e6;
  in.prices.electricity_usd_per_kwh = 0.10;
  in.provisioned_it_watts = 20'000;
  in.lifetime_years = 5;
  in.facility_lifetime_years = 15;
  in.maintenance_fraction_per_year = 0.05;
  in.pue = 1.2;
  in.grid_g_per_kwh = 400;
  in.token_budget = 1'000'000'000;
  in.embodied.die_area_mm2 = 814;
  in.embodied.process_nm = 4;
  in.embodied.accelerator_memory_gb = 80;
  // One iteration: 10 s, 1024 sequences of 4096 tokens; IT energy by class (J):
  //   accelerators 16 x 500 W x 10 s = 80,000; hosts 2 x 800 W x 10 s = 16,000;
  //   NICs 16 x 20 W x 10 s = 3,200; switches 2 x 600 W x 10 s = 12,000. Total 111,200 J.
  RunMeasures m;
  m.iteration_time = 10 * kSecond;
  m.tokens_per_iteration = 1024 * 4096;
  m.it_joules_per_iteration = {.accelerators = 80'000, .hosts = 16'000, .nics = 3'200, .switches = 12'000};
  in.prices.nics_in_server = false;  // the NICs bought on their own (the default prices them in the servers)
  const TcoReport r = compute_tco(in, m);

  // 1e9 / 4,194,304 = 238.4 -> 239 iterations, 2,390 s, 7.5734530e-5 years.
  ASSERT_EQ(r.iterations, 239u);
  const double years = 2390.0 / 31'557'600.0;
  const Totals& w = r.whole_run;
  EXPECT_NEAR(w.seconds, 2390, 1e-9);
  EXPECT_NEAR(w.device_hours, 16 * 2390 / 3600.0, 1e-9);
  EXPECT_DOUBLE_EQ(w.tokens, 239.0 * 4'194'304);

  // Capex: 400,000 + 0.64 x 400,000 + (24,000 + 50,000 + 48,000) = 778,000; facility 0.02 MW x $10M.
  EXPECT_NEAR(r.hardware_capex_usd, 778'000, 1e-6);
  EXPECT_NEAR(r.facility_capex_usd, 200'000, 1e-6);
  EXPECT_NEAR(r.capex_usd, 978'000, 1e-6);
  // Amortized: 778,000 x years / 5 = 11.78429 and 200,000 x years / 15 = 1.00979.
  EXPECT_NEAR(w.capex_amortized_usd, 11.784292848632342 + 1.0097937316737224, 1e-9);
  EXPECT_NEAR(w.maintenance_usd, 2.9460732121580855, 1e-9);  // 0.05 x 778,000 x years
  // Energy: 111,200 J x 239 = 7.382444 kWh IT, x 1.2 = 8.858933 kWh; $0.885893; 3.543573 kg.
  EXPECT_NEAR(w.it_energy_kwh, 7.382444444444444, 1e-9);
  EXPECT_NEAR(w.facility_energy_kwh, 8.858933333333333, 1e-9);
  EXPECT_NEAR(w.energy_usd, 0.8858933333333333, 1e-9);
  EXPECT_NEAR(w.operational_kgco2e, 3.5435733333333332, 1e-9);
  EXPECT_NEAR(w.opex_usd, 0.8858933333333333 + 2.9460732121580855, 1e-9);
  EXPECT_NEAR(w.cost_usd, 11.784292848632342 + 1.0097937316737224 + 0.8858933333333333 + 2.9460732121580855, 1e-9);
  // Embodied (LLMCarbon): per H100 8.14 x 1.8 + 80 x 0.4 = 46.652 kg; per host 2048 x 0.4 + 30,720 x 0.024
  // = 1,556.48 kg; 16 x 46.652 + 2 x 1,556.48 = 3,859.392 kg, x years / 5 = 0.0584578 kg.
  EXPECT_NEAR(w.embodied_kgco2e, 3859.392 * years / 5, 1e-12);
  EXPECT_NEAR(w.embodied_kgco2e, 0.05845784774507566, 1e-12);
  EXPECT_NEAR(w.carbon_kgco2e, 3.5435733333333332 + 0.05845784774507566, 1e-9);
  // ACT, 4 nm interpolated (EPA 3.0, GPA 450): 8.14 x (583 x 3 + 450 + 500) / 0.875 g = 25.1095 kg per die.
  EXPECT_NEAR(r.accelerator_die_act_kg, 8.14 * (583 * 3.0 + 950) / 0.875 / 1000, 1e-9);
  EXPECT_NEAR(w.embodied_act_kgco2e, (16 * (8.14 * 2699 / 0.875 / 1000 + 32) + 2 * 1556.48) * years / 5, 1e-12);
  EXPECT_FALSE(r.notes.empty());  // the interpolated ACT node is noted

  // Rates and scopes.
  EXPECT_NEAR(r.cost_usd_per_hour, w.cost_usd / (2390 / 3600.0), 1e-9);
  EXPECT_NEAR(r.mean_it_power_kw, 11.12, 1e-12);
  EXPECT_NEAR(r.per_iteration.cost_usd, w.cost_usd / 239, 1e-12);
  EXPECT_NEAR(r.per_iteration.facility_energy_kwh, 111'200 * 1.2 / 3.6e6, 1e-12);
  EXPECT_NEAR(r.per_million_tokens.cost_usd, w.cost_usd * 1e6 / (239.0 * 4'194'304), 1e-12);
  EXPECT_NEAR(r.per_million_tokens.carbon_kgco2e, w.carbon_kgco2e * 1e6 / (239.0 * 4'194'304), 1e-12);
  EXPECT_NEAR(w.cloud_equivalent_usd, 16 * 2390 / 3600.0 * 2.0, 1e-9);

  // The breakdown adds up to the totals; its energy rows split by class.
  double cost = 0, carbon = 0;
  for (const auto& row : r.breakdown) {
    cost += row.cost_usd;
    carbon += row.carbon_kgco2e.value_or(0);
  }
  EXPECT_NEAR(cost, w.cost_usd, 1e-9);
  EXPECT_NEAR(carbon, w.carbon_kgco2e, 1e-12);
  const auto row = [&](const std::string& item) {
    for (const auto& b : r.breakdown) {
      if (b.item == item) return b;
    }
    ADD_FAILURE() << "no row " << item;
    return BreakdownRow{};
  };
  EXPECT_NEAR(row("accelerators").cost_usd, 400'000 * years / 5, 1e-9);
  EXPECT_NEAR(row("switches").cost_usd, 50'000 * years / 5, 1e-9);
  EXPECT_NEAR(row("energy: accelerators").cost_usd, 80'000 * 239 * 1.2 / 3.6e6 * 0.10, 1e-12);
  EXPECT_NEAR(row("energy: switches").carbon_kgco2e.value_or(-1), 12'000 * 239 * 1.2 / 3.6e6 * 0.4, 1e-12);
  // Carbon the model does not count is not a zero: network hardware, the facility and maintenance have
  // none; nothing but the four classes is metered, so there is no "energy: other" row.
  for (const char* item : {"NICs", "switches", "optics and cables", "facility", "maintenance"})
    EXPECT_FALSE(row(item).carbon_kgco2e.has_value()) << item;
  EXPECT_TRUE(row("accelerators").carbon_kgco2e.has_value());
  EXPECT_TRUE(row("energy: NICs").carbon_kgco2e.has_value());
  EXPECT_EQ(std::count_if(r.breakdown.begin(), r.breakdown.end(), [](const BreakdownRow& b) { return b.item == "energy: other"; }), 0);
}

// Cottier et al.'s server factor of 1.64 comes from DGX system prices, whose servers carry their 8 compute
// NICs: by default (prices.nics_in_server) the NICs cost nothing more as network capex, while their
// energy and embodied carbon are counted as before. 16 accelerators at $25,000, 16 NICs at $1,500 (a
// 100 mm2 7 nm chip each), 2 switches at $25,000, 64 cable ends at $750.
TEST(SmallRun, NicsBoughtWithTheServersAreNotChargedTwice) {
  TcoInputs in;
  in.counts = {.accelerators = 16, .hosts = 2, .nics = 16, .switches = 2, .optical_ports = 64};
  in.network_items = {{"NICs", NetworkPart::nics, 16, 1'500, 100, 7},
                      {"leaf switches", NetworkPart::switches, 2, 25'000, 0, 0},
                      {"optics", NetworkPart::optics, 64, 750, 0, 0}};
  in.prices.accelerator_usd = 25'000;
  in.provisioned_it_watts = 20'000;
  RunMeasures m;
  m.iteration_time = kSecond;
  m.iterations = 1;
  m.it_joules_per_iteration = {.accelerators = 8'000, .nics = 320};
  ASSERT_TRUE(in.prices.nics_in_server);  // the default
  const TcoReport with = compute_tco(in, m);
  in.prices.nics_in_server = false;
  const TcoReport without = compute_tco(in, m);
  // Servers 1.64 x 400,000 = 656,000 either way; network 50,000 + 48,000, plus 16 x 1,500 bought apart.
  EXPECT_NEAR(with.network_capex_usd, 98'000, 1e-6);
  EXPECT_NEAR(without.network_capex_usd, 122'000, 1e-6);
  EXPECT_NEAR(with.hardware_capex_usd, 754'000, 1e-6);
  EXPECT_NEAR(without.hardware_capex_usd, 778'000, 1e-6);
  const auto row = [](const TcoReport& r, const std::string& item) {
    for (const auto& b : r.breakdown)
      if (b.item == item) return b;
    ADD_FAILURE() << "no row " << item;
    return BreakdownRow{};
  };
  EXPECT_EQ(row(with, "NICs").cost_usd, 0.0);
  EXPECT_GT(row(without, "NICs").cost_usd, 0.0);
  // The NICs' chips and energy: the same in both.
  ASSERT_TRUE(row(with, "NICs").carbon_kgco2e.has_value());
  EXPECT_GT(*row(with, "NICs").carbon_kgco2e, 0.0);
  EXPECT_EQ(row(with, "NICs").carbon_kgco2e, row(without, "NICs").carbon_kgco2e);
  EXPECT_EQ(with.network_embodied_kg, without.network_embodied_kg);
  EXPECT_EQ(row(with, "energy: NICs").cost_usd, row(without, "energy: NICs").cost_usd);
  EXPECT_EQ(row(with, "energy: NICs").carbon_kgco2e, row(without, "energy: NICs").carbon_kgco2e);
}

TEST(SmallRun, ExponentialDepreciationOfUsedHardware) {
  // One-year-old hardware, a run of exactly 0.5 years: lost = 10^(-0.14) - 10^(-0.21).
  TcoInputs in;
  in.counts.accelerators = 1;
  in.prices.accelerator_usd = 10'000;
  in.depreciation = Depreciation::exponential;
  in.hardware_age_years = 1;
  in.maintenance_fraction_per_year = 0;
  in.prices.facility_usd_per_mw = 0;
  RunMeasures m;
  m.iterations = 1;
  m.iteration_time = seconds(0.5 * kSecondsPerYear);
  const TcoReport r = compute_tco(in, m);
  const double lost = 0.72443596007499 - 0.6165950018614822;
  EXPECT_NEAR(r.hardware_value_lost, lost, 1e-12);
  EXPECT_NEAR(r.whole_run.capex_amortized_usd, 16'400 * lost, 1e-6);  // server factor 1.64
}

TEST(Validation, BadInputsAreErrors) {
  RunMeasures m;
  m.iteration_time = kSecond;
  m.iterations = 1;
  TcoInputs in;
  in.pue = 0.9;
  EXPECT_THROW(static_cast<void>(compute_tco(in, m)), std::invalid_argument);
  in = TcoInputs{};
  in.lifetime_years = 0;
  EXPECT_THROW(static_cast<void>(compute_tco(in, m)), std::invalid_argument);
  in = TcoInputs{};
  in.prices.cottier_network_share = 1.0;
  EXPECT_THROW(static_cast<void>(compute_tco(in, m)), std::invalid_argument);
  // No iterations and no token budget.
  in = TcoInputs{};
  m.iterations = 0;
  EXPECT_THROW(static_cast<void>(compute_tco(in, m)), std::invalid_argument);
  m.iterations = 1;
  m.iteration_time = 0;
  EXPECT_THROW(static_cast<void>(compute_tco(in, m)), std::invalid_argument);
  EXPECT_EQ(iterations_for_tokens(100, 10), 10u);
  EXPECT_EQ(iterations_for_tokens(101, 10), 11u);
  EXPECT_THROW(static_cast<void>(iterations_for_tokens(1, 0)), std::invalid_argument);
}

}  // namespace
}  // namespace rackscale::models::tco
