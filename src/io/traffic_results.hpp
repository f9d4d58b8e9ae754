#pragma once
// The results file of a traffic run (layout and units: docs/output.md). Every rank writes the rows of
// what it owns (nodes, devices and ports of its racks, its row of per-rank tables); figures several
// ranks add to are first reduced onto their owners (io/owned_rows.hpp). Results datasets come out
// identical, byte for byte, for any rank count and partition method.
#include "io/hdf5/file.hpp"
#include "io/results_metadata.hpp"
#include "models/scenario.hpp"
#include "models/traffic/traffic_run_state.hpp"

namespace rackscale::io {

// Collective: writes the traffic run's groups, datasets and attributes into `file`, which must be
// empty. Throws hdf5::Error.
void write_traffic_results(hdf5::File& file, const models::Scenario& scenario,
                           const models::traffic::TrafficRunState& run, const ProgramInfo& program);

}  // namespace rackscale::io
