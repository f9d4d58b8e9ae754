#pragma once
// A training run's timeline trace, as the simulation layer asks for it (sim/training_trace.hpp); the
// Chrome trace file that answers is app/chrome_trace_file.hpp.
#include "sim/training_trace.hpp"

namespace rackscale::app {

using sim::NoTrainingTrace;
using sim::TraceRefused;
using sim::TrainingTrace;

}  // namespace rackscale::app
