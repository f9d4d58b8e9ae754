#pragma once
// The /tco group of a results file: the cost, energy and carbon of a run (models/tco/tco_report.hpp;
// layout and units: docs/output.md). Every figure is the same on every rank (it is computed from
// totals reduced over ranks), so it is stored as attributes and small tables written by rank 0.
#include "io/hdf5/group.hpp"
#include "models/tco/tco_report.hpp"

namespace rackscale::io {

// Collective: creates `root`/tco and writes `report` into it. Throws hdf5::Error.
void write_tco(hdf5::Group& root, const models::tco::TcoReport& report);

}  // namespace rackscale::io
