#pragma once
// The results file of a training run (layout and units: docs/output.md). Every rank writes the rows of
// what it owns (nodes, devices and ports of its racks, its row of per-rank tables) from the state the
// run left on it; the small tables every rank holds whole (per stage, per collective, per iteration)
// are written by rank 0. Results datasets come out identical, byte for byte, for any rank count and
// partition method.
#include "io/hdf5/file.hpp"
#include "io/results_metadata.hpp"
#include "models/scenario.hpp"
#include "models/workload/training_run_state.hpp"

namespace rackscale::io {

// Collective: writes the training run's groups, datasets and attributes into `file`, which must be
// empty. Throws hdf5::Error.
void write_training_results(hdf5::File& file, const models::Scenario& scenario,
                            const models::workload::TrainingRunState& run, const ProgramInfo& program);

}  // namespace rackscale::io
