#pragma once
// The results file of an nccl-tests style collective sweep (layout and units: docs/output.md): the root
// attributes and a /collective group with one row per message size. Every figure of a sweep is reduced
// over ranks, so rank 0 writes the rows.
#include "io/hdf5/file.hpp"
#include "io/results_metadata.hpp"
#include "models/collectives/collective_report.hpp"
#include "models/scenario.hpp"

namespace rackscale::io {

// Collective: writes the sweep into `file`, which must be empty. Throws hdf5::Error.
void write_collective_results(hdf5::File& file, const models::Scenario& scenario,
                              const models::collectives::CollectiveReport& report, const ProgramInfo& program);

}  // namespace rackscale::io
