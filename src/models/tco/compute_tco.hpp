#pragma once
// Total cost of ownership and carbon of a simulated training run (formulas in docs/tco.md):
//
//   run time          = iteration time x iterations
//   capex             = accelerators x price x server factor + network + facility
//   amortized capex   = hardware capex x value lost over the run + facility capex x run / facility lifetime
//   energy            = IT energy per iteration x iterations x PUE
//   opex              = energy x electricity price + maintenance fraction x hardware capex x run years
//   operational CO2e  = energy x grid intensity
//   embodied CO2e     = (run / lifetime) x (accelerators x (die + HBM) + hosts x (DRAM + SSD + CPU))
#include "models/tco/run_measures.hpp"
#include "models/tco/tco_inputs.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::models::tco {

// Throws std::invalid_argument on invalid inputs (validate()) or measures (no iteration time, no
// iterations and no token budget).
[[nodiscard]] TcoReport compute_tco(const TcoInputs& inputs, const RunMeasures& measures);

}  // namespace rackscale::models::tco
