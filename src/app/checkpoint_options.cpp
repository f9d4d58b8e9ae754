#include "app/checkpoint_options.hpp"

namespace rackscale::app {

void add_checkpoint_options(CLI::App& command, CheckpointOptions& options) {
  command.add_option("--checkpoint", options.checkpoint,
                     "Write a checkpoint to this file when the run is stopped (and every --checkpoint-every)");
  command.add_option("--checkpoint-every", options.every,
                     "Wall time between checkpoints: a number with s, min or h (e.g. 30min)");
  command.add_option("--stop-after-windows", options.stop_after_windows,
                     "Stop (and checkpoint) once this many windows have run in total (a test hook; docs/cli.md)");
  command.add_option("--restart", options.restart, "Continue the run saved in this checkpoint file");
}

}  // namespace rackscale::app
