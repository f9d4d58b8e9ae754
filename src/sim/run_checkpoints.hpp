#pragma once
// Checkpoints and early stops of a run (--checkpoint, --checkpoint-every, --stop-after-windows,
// --restart; docs/cli.md): what the options ask for, and how a run's engine is set up to honour them.
// Shared by every Session run and `rackscale phold`; the options themselves are app/checkpoint_options.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/checkpoint.hpp"
#include "pdes/checkpoint_file.hpp"
#include "pdes/engine.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::sim {

struct CheckpointOptions {
  std::string checkpoint;                // --checkpoint FILE; empty: none written
  std::string every;                     // --checkpoint-every DURATION (wall time); empty: only when stopping
  std::uint64_t stop_after_windows = 0;  // --stop-after-windows N; 0: never
  std::string restart;                   // --restart FILE; empty: start from the beginning
};

// What a checkpoint of a `rackscale run` must match: the scenario as resolved from the config file, its
// presets and the --set overrides (Scenario::resolved_yaml).
[[nodiscard]] std::uint64_t scenario_hash(const std::string& resolved_yaml);

// Wall-clock seconds of a --checkpoint-every value: a positive number with s, min or h ("30min").
// Throws pdes::CheckpointRefused naming the option.
[[nodiscard]] double parse_wall_duration(const std::string& text);

// The model's per-rank state outside its LPs, for checkpoints (both null: none).
struct ModelState {
  std::function<void(pdes::CheckpointWriter&)> save;
  std::function<void(pdes::CheckpointReader&)> load;
  // A run made of several engines in turn (a collective benchmark's sizes) says where it is in the
  // sequence: saved in front of the engine's state, so that a restart reads it (read_restart) before it
  // builds the engine to restore. Null: the run is one engine.
  std::function<void(pdes::CheckpointWriter&)> save_position;
};

// A --restart file's state of this rank, for a run of several engines: its position in the sequence
// (ModelState::save_position) and the state of the engine it stopped in.
struct RestartState {
  std::string position;
  std::string engine;
};
// Collective: reads and checks the --restart file (options.restart, which must be set) and splits it.
// Throws pdes::CheckpointRefused on every rank.
[[nodiscard]] RestartState read_restart(const boost::mpi::communicator& comm, const CheckpointOptions& options,
                                        const pdes::CheckpointIdentity& identity);

// Collective, after every LP is added and before engine.run(): checks the options, sets the engine up
// to write checkpoints and stop, and restores the --restart state (for a run of several engines, the
// engine part of `restart` instead: the --restart file is read once, by read_restart, and only the
// engine the run stopped in is restored; the later ones start afresh). Throws pdes::CheckpointRefused
// on every rank (exit 2) for a bad option, a workload whose LPs cannot be checkpointed, or a checkpoint
// that is unreadable or not for this run.
void prepare_checkpoints(const boost::mpi::communicator& comm, pdes::Engine& engine, const CheckpointOptions& options,
                         const pdes::CheckpointIdentity& identity, ModelState model = {},
                         const RestartState* restart = nullptr);

// A run that stopped at a window boundary before its end (a stop signal or --stop-after-windows).
// Thrown on every rank; the message says why, when, and how to continue (exit 4).
class RunStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// After engine.run(): throws RunStopped if the run stopped early.
void throw_if_stopped(const pdes::EngineStats& stats, const CheckpointOptions& options);

}  // namespace rackscale::sim
