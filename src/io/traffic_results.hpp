#pragma once
// The results file of a traffic run (layout and units: docs/output.md). Every rank writes the rows of
// what it owns (nodes, devices and ports of its racks, its row of per-rank tables); figures several
// ranks add to are first reduced onto their owners (io/owned_rows.hpp). Results datasets come out
// identical, byte for byte, for any rank count and partition method.
#include <string>

#include "io/hdf5/file.hpp"
#include "models/scenario.hpp"
#include "models/traffic/traffic_run_state.hpp"

namespace rackscale::io {

// Which program wrote a file (the app layer knows: it is generated at build time).
struct ProgramInfo {
  std::string version;
  std::string git_revision;
};

// The format_version root attribute; raise it when a change would break readers.
inline constexpr std::int64_t kResultsFormatVersion = 1;

// Collective: writes the traffic run's groups, datasets and attributes into `file`, which must be
// empty. Throws hdf5::Error.
void write_traffic_results(hdf5::File& file, const models::Scenario& scenario,
                           const models::traffic::TrafficRunState& run, const ProgramInfo& program);

}  // namespace rackscale::io
