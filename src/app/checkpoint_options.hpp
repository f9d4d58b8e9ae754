#pragma once
// The command-line side of checkpoints and early stops (--checkpoint, --checkpoint-every,
// --stop-after-windows, --restart; docs/cli.md), shared by `rackscale run` and `rackscale phold`.
#include <CLI/CLI.hpp>

#include "sim/run_checkpoints.hpp"

namespace rackscale::app {

// The run side of checkpoints lives in the simulation layer (sim/run_checkpoints.hpp).
using sim::CheckpointOptions;
using sim::ModelState;
using sim::parse_wall_duration;
using sim::prepare_checkpoints;
using sim::read_restart;
using sim::RestartState;
using sim::RunStopped;
using sim::scenario_hash;
using sim::throw_if_stopped;

void add_checkpoint_options(CLI::App& command, CheckpointOptions& options);

}  // namespace rackscale::app
