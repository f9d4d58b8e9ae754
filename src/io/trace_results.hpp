#pragma once
// The results file of a trace replay (layout and units: docs/output.md): the cluster's groups as every
// run on one engine writes them, /devices (which traced rank each device replayed), /trace (the replay's
// figures, its critical path and one row per traced rank) and /statistics. Results datasets come out
// identical for any rank count and partition method.
#include "io/hdf5/file.hpp"
#include "io/results_metadata.hpp"
#include "models/scenario.hpp"
#include "models/workload/trace_report.hpp"
#include "sim/workload.hpp"

namespace rackscale::io {

// Collective: writes the trace replay's groups, datasets and attributes into `file`, which must be empty.
// Throws hdf5::Error.
void write_trace_results(hdf5::File& file, const models::Scenario& scenario, const sim::FinishedRun& run,
                         const models::workload::TraceReport& report, const ProgramInfo& program);

}  // namespace rackscale::io
