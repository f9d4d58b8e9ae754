#include "app/tco_command.hpp"

#include <charconv>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/accounting_inputs.hpp"
#include "app/exit_codes.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/number_format.hpp"
#include "io/scenario_header.hpp"
#include "io/tco_figures.hpp"
#include "io/text_table.hpp"
#include "models/tco/accounting.hpp"
#include "models/tco/grid_intensity.hpp"

namespace rackscale::app {
namespace {

namespace tco = models::tco;

// --grid: a preset name (docs/tco.md) or gCO2e/kWh.
double grid_of(const std::string& text) {
  if (const auto preset = tco::grid_intensity_g_per_kwh(text)) return *preset;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || !(value >= 0)) {
    std::string names;
    for (const auto& g : tco::grid_presets()) names += (names.empty() ? "" : ", ") + std::string(g.name);
    throw std::invalid_argument(
        fmt::format("--grid: expected a grid preset ({}) or gCO2e/kWh >= 0, found '{}'", names, text));
  }
  return value;
}

std::string summary(const tco::TcoReport& r, double devices) {
  const tco::Totals& w = r.whole_run;
  using A = io::TextTable::Align;
  io::TextTable t({"whole run", "value"}, {A::left, A::right});
  t.add_row({"devices", io::with_commas(static_cast<unsigned long long>(devices))});
  t.add_row({"time", io::format_seconds(w.seconds)});
  t.add_row({"device-hours", fmt::format("{:.6g}", w.device_hours)});
  t.add_row({"IT energy", io::with_prefix(w.it_energy_kwh * 1e3, io::Prefixes::si, "Wh")});
  t.add_row({"facility energy (x PUE)", io::with_prefix(w.facility_energy_kwh * 1e3, io::Prefixes::si, "Wh")});
  t.add_row({"capex, amortized", io::format_usd(w.capex_amortized_usd)});
  t.add_row({"electricity", io::format_usd(w.energy_usd)});
  t.add_row({"maintenance", io::format_usd(w.maintenance_usd)});
  t.add_row({"cost", io::format_usd(w.cost_usd)});
  t.add_row({"cloud equivalent (comparison)", io::format_usd(w.cloud_equivalent_usd)});
  t.add_row({"carbon, operational (CO2e)", fmt::format("{:.6g} t", w.operational_kgco2e / 1e3)});
  t.add_row({"carbon, embodied (CO2e)", fmt::format("{:.6g} t", w.embodied_kgco2e / 1e3)});
  t.add_row({"carbon, total (CO2e)", fmt::format("{:.6g} t", w.carbon_kgco2e / 1e3)});
  std::string out = t.render();
  out += fmt::format("capex {} (accelerators {}, hosts {}, network {}, facility {})\n", io::format_usd(r.capex_usd),
                     io::format_usd(r.accelerators_capex_usd), io::format_usd(r.hosts_capex_usd),
                     io::format_usd(r.network_capex_usd), io::format_usd(r.facility_capex_usd));
  for (const std::string& note : r.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace

TcoCommand::TcoCommand(CLI::App& parent)
    : command_(parent.add_subcommand("tco", "Energy, cost and carbon of a run from its GPU-hours, without simulating")) {
  command_->add_option("config", config_, "Scenario file (YAML): the cluster and its tco: section")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  auto* hours = command_->add_option("--gpu-hours", gpu_hours_, "Accelerator-hours of the whole run");
  auto* days = command_->add_option("--days", days_, "Days of the run on every accelerator of the cluster");
  hours->excludes(days);
  days->excludes(hours);
  command_->add_option("--power-per-device", power_per_device_,
                       "The whole system's mean power per accelerator, W (default: the presets at --utilization)");
  command_->add_option("--utilization", utilization_, "Accelerators' and hosts' mean utilization, 0 to 1 (default 0.75)");
  command_->add_option("--pue", pue_, "Power usage effectiveness (default: tco.pue)");
  command_->add_option("--grid", grid_, "Grid intensity: a preset name or gCO2e/kWh (default: tco.grid)");
  command_->add_option("--price-per-gpu-hour", price_per_gpu_hour_,
                       "Cloud price per accelerator-hour, USD, for the comparison row (default: tco.prices.cloud)");
  command_->add_flag("--json", json_, "Also print the tco object (as in run --json) on the last line");
}

int TcoCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  if (gpu_hours_.has_value() == days_.has_value()) {
    if (printer) std::cerr << "tco: expected one of --gpu-hours or --days\n";
    return kExitBadInput;
  }
  models::Scenario scenario;
  tco::TcoReport report;
  try {
    scenario = io::load_scenario(config_, overrides_);
    tco::TcoSettings settings = scenario.tco;
    if (pue_) settings.inputs.pue = *pue_;
    if (!grid_.empty()) settings.inputs.grid_g_per_kwh = grid_of(grid_);
    if (price_per_gpu_hour_) settings.inputs.prices.cloud_usd_per_device_hour = *price_per_gpu_hour_;
    const auto [power, inventory] = accounting_inputs(scenario, settings);
    tco::AccountingRequest request;
    request.device_hours =
        gpu_hours_ ? *gpu_hours_ : *days_ * 24.0 * static_cast<double>(inventory.counts.accelerators);
    request.watts_per_device = power_per_device_;
    request.utilization = utilization_;
    report = tco::account(settings, inventory, power, request, scenario.cluster.accelerator.name);
  } catch (const io::ConfigError& e) {
    if (printer) std::cerr << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    if (printer) std::cerr << locate_error(scenario, e.what()) << '\n';
    return kExitBadInput;
  }
  if (!printer) return kExitOk;
  std::cout << io::scenario_header(scenario, fmt::format("accounting for {} devices of {}",
                                                          io::with_commas(scenario.cluster.devices()),
                                                          scenario.cluster.accelerator.name));
  std::cout << summary(report, static_cast<double>(scenario.cluster.devices()));
  if (json_) std::cout << io::tco_json(report).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app
