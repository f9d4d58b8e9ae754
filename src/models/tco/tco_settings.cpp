#include "models/tco/tco_settings.hpp"

#include <fmt/format.h>

#include "models/tco/compute_tco.hpp"

namespace rackscale::models::tco {

TcoSettings default_settings(const AcceleratorSpec& accelerator) {
  TcoSettings s;
  s.inputs = inputs_for(accelerator, HardwareCounts{});
  s.accelerator_price_assumed = !default_accelerator_price_usd(accelerator.name).has_value();
  return s;
}

TcoReport compute_tco(const TcoSettings& settings, const HardwareInventory& inventory, const RunMeasures& measures,
                      const std::string& accelerator_name) {
  TcoInputs inputs = settings.inputs;
  inputs.counts = inventory.counts;
  inputs.network_items = network_items(inventory.bom);
  if (inputs.provisioned_it_watts == 0) inputs.provisioned_it_watts = inventory.provisioned_it_watts;
  TcoReport report = compute_tco(inputs, measures);
  for (const std::string& note : inventory.bom.notes) report.notes.push_back(note);
  if (settings.accelerator_price_assumed)
    report.notes.push_back(fmt::format("no assumed price for accelerator '{}': USD {:.0f} used (set tco.prices.accelerator)",
                                       accelerator_name, inputs.prices.accelerator_usd));
  return report;
}

}  // namespace rackscale::models::tco
